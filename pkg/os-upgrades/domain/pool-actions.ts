import type { PoolRow } from './pool-rows';

// Which actions a pool's row menu (and its detail page) offers. What the person may do is given
// (`PoolAccess`, from the schema today; per-object `links` may narrow it), what the pool allows
// is the row's own state: Approve only with an upgrade available, Roll back only with a previous pin.

export type PoolActionId = 'approve' | 'rollback' | 'edit' | 'editYaml' | 'delete';

export interface PoolAccess {
  /** May replace the pool (PUT). */
  update: boolean;
  /** May delete the pool (DELETE). */
  remove: boolean;
}

export interface PoolAction {
  id: PoolActionId;
  /** The shell's bulk actions apply to every selected row. */
  bulkable: boolean;
}

/** The actions offered for one pool, in the shell's menu order (Delete last). */
export function poolActions(row: Pick<PoolRow, 'upgradeAvailable' | 'canRollBack' | 'imageDrift'>, access: PoolAccess): PoolAction[] {
  const actions: PoolAction[] = [];

  // A pin that now names another image than approved is approved again (or rolled back).
  if (access.update && (row.upgradeAvailable || row.imageDrift)) {
    actions.push({ id: 'approve', bulkable: false });
  }
  if (access.update && row.canRollBack) {
    actions.push({ id: 'rollback', bulkable: false });
  }
  if (access.update) {
    actions.push({ id: 'edit', bulkable: false }, { id: 'editYaml', bulkable: false });
  }
  if (access.remove) {
    actions.push({ id: 'delete', bulkable: true });
  }

  return actions;
}
