import { alreadyAtImage, conflictChanges, writeVerdict } from '..';
import { poolObject } from './pool-test-data';

describe('what a write did', () => {
  const before = poolObject({ spec: { concurrency: 1 } });
  const sent = poolObject({ spec: { concurrency: 3 } });

  it('tells written, not written and unknown apart from a read afterwards', () => {
    expect(writeVerdict(sent, before, poolObject({ spec: { concurrency: 3 } }))).toBe('written');
    expect(writeVerdict(sent, before, poolObject({ spec: { concurrency: 1 } }))).toBe('notWritten');
    expect(writeVerdict(sent, before, poolObject({ spec: { concurrency: 7 } }))).toBe('unknown');
    expect(writeVerdict(sent, before, undefined)).toBe('unknown');
  });

  it('for a create: nothing there means nothing written', () => {
    expect(writeVerdict(sent, undefined, undefined)).toBe('notWritten');
    expect(writeVerdict(sent, undefined, sent)).toBe('written');
    expect(writeVerdict(sent, undefined, before)).toBe('unknown');
  });

  it('ignores status changes', () => {
    const latest = { ...poolObject({ spec: { concurrency: 3 } }), status: { state: 'progressing' } };

    expect(writeVerdict(sent, before, latest)).toBe('written');
  });

  it('knows when a lost approval race left the pool at the image anyway', () => {
    expect(alreadyAtImage(poolObject({ pin: 'base-v2.2.0-3.12-os' }), 'base-v2.2.0-3.12-os')).toBe(true);
    expect(alreadyAtImage(poolObject({ pin: 'base-v2.2.0-3.9-os' }), 'base-v2.2.0-3.12-os')).toBe(false);
    expect(alreadyAtImage(poolObject({ pin: 'x' }), '')).toBe(false);
  });
});

describe('the other writer\'s change beside mine', () => {
  it('lists what they changed, and marks a field both changed', () => {
    const snapshot = poolObject({ spec: { concurrency: 1, cordon: true } });
    const latest = poolObject({ spec: { concurrency: 4, cordon: false } });
    const mine = poolObject({ spec: { concurrency: 2, cordon: true } });
    const changes = conflictChanges(snapshot, latest, mine);

    expect(changes).toEqual([
      {
        path: 'spec.concurrency', before: 1, theirs: 4, mine: 2, clash: true
      },
      {
        path: 'spec.cordon', before: true, theirs: false, clash: false
      },
    ]);
  });

  it('lists added and removed annotations, and nothing when nothing changed', () => {
    const snapshot = poolObject();
    const latest = poolObject({ annotations: { team: 'ops' } });

    expect(conflictChanges(snapshot, latest, undefined).map((c) => c.path)).toEqual(['metadata.annotations.team']);
    expect(conflictChanges(snapshot, snapshot, undefined)).toEqual([]);
  });
});
