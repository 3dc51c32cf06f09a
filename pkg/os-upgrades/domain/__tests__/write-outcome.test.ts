import fc from 'fast-check';
import {
  alreadyAtImage, approvalRaceLost, conflictChanges, holdsWrittenContent, readBackVerdict, writeVerdict
} from '..';
import { poolObject } from './pool-test-data';

describe('what a write did', () => {
  const before = poolObject({ spec: { concurrency: 1 } });
  const sent = poolObject({ spec: { concurrency: 3 } });

  it('tells written, not written and written by someone else apart from a read afterwards', () => {
    expect(writeVerdict(sent, before, poolObject({ spec: { concurrency: 3 } }))).toBe('written');
    expect(writeVerdict(sent, before, poolObject({ spec: { concurrency: 1 } }))).toBe('notWritten');
    expect(writeVerdict(sent, before, poolObject({ spec: { concurrency: 7 } }))).toBe('other');
    // Deleted meanwhile: someone else's doing.
    expect(writeVerdict(sent, before, undefined)).toBe('other');
  });

  it('for a create: nothing there means nothing written', () => {
    expect(writeVerdict(sent, undefined, undefined)).toBe('notWritten');
    expect(writeVerdict(sent, undefined, sent)).toBe('written');
    expect(writeVerdict(sent, undefined, before)).toBe('other');
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

  it('names the image someone else approved first, whether the watch or a 409 brought it', () => {
    const read = poolObject({ pin: 'base-v2.2.0-3.9-os' });
    const approved = poolObject({ pin: 'base-v2.2.0-3.12-os' });

    expect(approvalRaceLost(read, approved, 'base-v2.2.0-3.12-os')).toBe('base-v2.2.0-3.12-os');
    // Nothing known yet, or the other writer chose another image.
    expect(approvalRaceLost(read, undefined, 'base-v2.2.0-3.12-os')).toBe('');
    expect(approvalRaceLost(read, poolObject({ pin: 'base-v2.2.0-3.8-os' }), 'base-v2.2.0-3.12-os')).toBe('');
    // Approving again a pin whose image changed: the pool pinned it already when the dialog read it.
    expect(approvalRaceLost(approved, approved, 'base-v2.2.0-3.12-os')).toBe('');
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

describe('the one read-back rule, for any object', () => {
  const channel = (annotations: Record<string, string>, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSVersionChannel',
    metadata:   {
      name: 'sl-micro', namespace: 'fleet-default', resourceVersion: '5', annotations
    },
    spec: { type: 'json' },
    ...extra,
  });
  const withdrawn = { 'os-upgrades.cattle.io/withdrawn': '[{"version":"v1"}]' };

  it('a channel whose annotation landed is written, whatever its status and bookkeeping say', () => {
    const latest = {
      ...channel(withdrawn, { status: { lastSyncedTime: 'now' } }), id: 'fleet-default/sl-micro', links: { self: 'x' }
    };

    (latest.metadata as Record<string, unknown>).resourceVersion = '9';
    expect(readBackVerdict(channel(withdrawn), channel({}), latest)).toBe('written');
    expect(readBackVerdict(channel(withdrawn), channel({}), channel({}))).toBe('notWritten');
    expect(readBackVerdict(channel(withdrawn), channel({}), channel({ other: 'x' }))).toBe('other');
  });

  it('a setting created by this write holds its value beside what the server adds', () => {
    const sent = {
      type: 'management.cattle.io.setting', metadata: { name: 'os-upgrades-changelog-origins' }, value: 'https://a.example'
    };

    expect(readBackVerdict(sent, undefined, {
      ...sent, default: '', customized: false, source: ''
    })).toBe('written');
    expect(readBackVerdict(sent, undefined, { ...sent, value: 'https://b.example' })).toBe('other');
    expect(readBackVerdict(sent, undefined, undefined)).toBe('notWritten');
  });

  it('a removed annotation counts: a read that still has it does not hold the write', () => {
    expect(holdsWrittenContent(channel({}), channel(withdrawn))).toBe(false);
    expect(holdsWrittenContent(channel(withdrawn), channel(withdrawn))).toBe(true);
  });

  it('says written exactly when the read holds what was sent, and never written when it holds only the old object', () => {
    const text = fc.string({ maxLength: 6 });

    fc.assert(fc.property(fc.dictionary(text, text, { maxKeys: 3 }), fc.dictionary(text, text, { maxKeys: 3 }), fc.constantFrom('sent', 'before', 'none'), (old, mine, read) => {
      const sent = channel(mine);
      const before = channel(old);
      const latest = read === 'sent' ? channel(mine, { status: { x: 1 } }) : read === 'before' ? channel(old) : undefined;
      const verdict = readBackVerdict(sent, before, latest);

      if (read === 'sent') {
        expect(verdict).toBe('written');
      } else if (read === 'before') {
        expect(verdict).toBe(JSON.stringify(old) === JSON.stringify(mine) ? 'written' : 'notWritten');
      } else {
        expect(verdict).toBe('other');
      }
    }));
  });
});
