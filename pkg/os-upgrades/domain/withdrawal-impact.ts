// What withdrawing an image does to the pools, before the click: the pools that run it (pinned to
// it, or whose selector picks it now) and what each shows afterwards (rules "Withdrawn images" and "Fleet overview").
import type { OSVersion } from './types';
import { asOSVersions, VersionInput } from './channel';
import { readPool, versionsForPool } from './pool';
import { resolveSelector } from './selector';
import { withdrawnPin, WithdrawnPin } from './fleet-overview';

export type WithdrawalEffect =
  /** Pinned to the image: it shows the withdrawal with this way out (none when undefined). */
  | { kind: 'pinned'; wayOut?: WithdrawnPin['wayOut'] }
  /**
   * Its selector picks the image now (an upgrade offered): afterwards it picks `versionName` (none
   * when undefined); `isPin` when that is the pool's pin, so no upgrade is offered any more.
   */
  | { kind: 'selected'; versionName?: string; isPin?: true };

export interface WithdrawalImpactRow {
  namespace: string;
  name: string;
  effect: WithdrawalEffect;
}

/**
 * The pools affected by withdrawing `name` (a version of `namespace`), by namespace and name.
 * `versions` are those the pools choose from (the image's channel, and the channels of selectors
 * without one); a selector whose channels are not among them is not known to pick it.
 */
export function withdrawalImpact(pools: readonly unknown[], versions: readonly VersionInput[], namespace: string, name: string, now: number): WithdrawalImpactRow[] {
  const before = asOSVersions(versions);
  const after: OSVersion[] = before.map((version) => (version.name === name && version.namespace === namespace && !version.withdrawn ? {
    ...version,
    withdrawn: {
      reason: '', by: '', at: ''
    }
  } : version));
  const rows: WithdrawalImpactRow[] = [];

  for (const pool of pools) {
    const view = readPool(pool);

    if (view.namespace !== namespace) {
      continue;
    }
    if (view.pin === name && !view.osImage) {
      rows.push({
        namespace: view.namespace, name: view.name, effect: { kind: 'pinned', wayOut: withdrawnPin(pool, after, now)?.wayOut }
      });
    } else if (view.selector && resolveSelector(view.selector, versionsForPool(before, namespace), now).chosen?.name === name) {
      const next = resolveSelector(view.selector, versionsForPool(after, namespace), now).chosen;

      rows.push({
        namespace: view.namespace,
        name:      view.name,
        effect:    {
          kind: 'selected', ...(next ? { versionName: next.name } : {}), ...(next && next.name === view.pin ? { isPin: true as const } : {})
        }
      });
    }
  }

  return rows.sort((a, b) => (a.name < b.name ? -1 : Number(a.name > b.name)));
}
