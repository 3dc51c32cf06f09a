import fc from 'fast-check';
import { poolActions } from '..';

const ids = (actions: { id: string }[]) => actions.map((a) => a.id);

describe('the row menu of a pool', () => {
  it('offers Approve and Roll back only when the pool allows them, Delete last', () => {
    expect(ids(poolActions({ upgradeAvailable: true, canRollBack: true }, { update: true, remove: true }))).toEqual(['approve', 'rollback', 'edit', 'editYaml', 'delete']);
    expect(ids(poolActions({ upgradeAvailable: false, canRollBack: false }, { update: true, remove: true }))).toEqual(['edit', 'editYaml', 'delete']);
  });

  it('offers nothing that writes to a viewer, and Delete only to who may delete', () => {
    expect(poolActions({ upgradeAvailable: true, canRollBack: true }, { update: false, remove: false })).toEqual([]);
    expect(ids(poolActions({ upgradeAvailable: true, canRollBack: true }, { update: false, remove: true }))).toEqual(['delete']);
  });

  it('only Delete is a bulk action (property)', () => {
    fc.assert(fc.property(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), (upgradeAvailable, canRollBack, update, remove) => {
      const actions = poolActions({ upgradeAvailable, canRollBack }, { update, remove });

      expect(actions.filter((a) => a.bulkable).map((a) => a.id)).toEqual(remove ? ['delete'] : []);
      expect(actions.some((a) => a.id !== 'delete')).toBe(update);
    }));
  });
});
