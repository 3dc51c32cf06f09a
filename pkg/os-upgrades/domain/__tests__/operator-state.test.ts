import fc from 'fast-check';
import { channelVersions } from '../../../../tests/support/fixtures';
import {
  OPERATOR_VERSION_LABEL, operatorPin, operatorState, operatorStateWithNodes, pendingWrite, RolloutVerdict, samePersonContent
} from '../index';

const VERSIONS = [...channelVersions('sl-micro-6.1-base'), ...channelVersions('sl-micro-6.2-base')];
const READY = [{
  type: 'Ready', status: 'True', reason: 'UnknownReason', message: '', lastTransitionTime: '2025-10-01T00:00:00Z'
}];

function pool(pin: string, conditions: unknown[] = READY, labels: Record<string, string> = {}): Record<string, unknown> {
  return {
    metadata: {
      name: 'p', namespace: 'fleet-default', resourceVersion: '7', labels
    },
    spec:   { managedOSVersionName: pin },
    status: { conditions },
  };
}

describe('operatorState', () => {
  it('says the operator refuses a pin to a missing version or an iso', () => {
    expect(operatorState(pool('gone-os'), VERSIONS)).toEqual({ kind: 'refused', reason: { key: 'osUpgrades.pool.operator.missing', values: { name: 'gone-os' } } });
    expect(operatorState(pool('base-v2.3.0-6.1-iso'), VERSIONS)).toEqual({ kind: 'refused', reason: { key: 'osUpgrades.pool.operator.notContainer', values: { name: 'base-v2.3.0-6.1-iso', type: 'iso' } } });
  });

  it('waits after a write until the copied conditions move, whatever order their keys come in', () => {
    const written = pool('base-v2.2.0-3.12-os');
    const pending = pendingWrite(written);
    const reordered = pool('base-v2.2.0-3.12-os', [{
      message: '', lastTransitionTime: '2025-10-01T00:00:00Z', status: 'True', type: 'Ready', reason: 'UnknownReason'
    }], { [OPERATOR_VERSION_LABEL]: 'base-v2.2.0-3.12-os' });

    // The operator's first reconcile copies the old bundle status: still the old Ready.
    expect(operatorState(reordered, VERSIONS, pending)).toEqual({ kind: 'waiting' });
    const moved = pool('base-v2.2.0-3.12-os', [{
      ...READY[0], status: 'False', message: 'WaitApplied(1) [Cluster fleet-default/c]'
    }]);

    expect(operatorState(moved, VERSIONS, pending)).toEqual({ kind: 'current' });
    expect(operatorState(written, VERSIONS)).toEqual({ kind: 'current' });
    // Someone else moved the pin since: the remembered write is not this pool's state any more.
    expect(operatorState(pool('base-v2.2.0-3.9-os'), VERSIONS, pending)).toEqual({ kind: 'current' });
  });

  it('stops waiting once every node runs the pin, though the operator missed Fleet\'s not-Ready and the conditions never moved', () => {
    const written = pool('base-v2.2.0-3.12-os');
    const waiting = operatorState(written, VERSIONS, pendingWrite(written));

    expect(waiting).toEqual({ kind: 'waiting' });
    expect(operatorStateWithNodes(waiting, { verdict: 'rolledOut' })).toEqual({ kind: 'current' });
    const stillWaiting: RolloutVerdict[] = ['progressing', 'failed', 'unknown', 'loading', 'bundleMissing', 'noClusters', 'noNodes'];

    for (const verdict of stillWaiting) {
      expect(operatorStateWithNodes(waiting, { verdict })).toEqual({ kind: 'waiting' });
    }
    expect(operatorStateWithNodes(waiting)).toEqual({ kind: 'waiting' });
    // Nodes never turn a refusal into anything else: the operator still cannot use the pin.
    const refused = operatorState(pool('gone-os'), VERSIONS);

    expect(operatorStateWithNodes(refused, { verdict: 'rolledOut' })).toBe(refused);
  });

  it('a refusal wins over waiting: the operator will never move the status', () => {
    const written = pool('gone-os');

    expect(operatorState(written, VERSIONS, pendingWrite(written)).kind).toBe('refused');
  });
});

describe('samePersonContent', () => {
  it('ignores the operator\'s label, status and bookkeeping, not a person\'s changes', () => {
    const a = pool('base-v2.2.0-3.9-os');
    const b = {
      ...pool('base-v2.2.0-3.9-os', [], { [OPERATOR_VERSION_LABEL]: 'base-v2.2.0-3.9-os' }),
      metadata: {
        name: 'p', namespace: 'fleet-default', resourceVersion: '9', labels: { [OPERATOR_VERSION_LABEL]: 'base-v2.2.0-3.9-os' }
      }
    };

    expect(samePersonContent(a, b)).toBe(true);
    expect(operatorPin(b)).toBe('base-v2.2.0-3.9-os');
    expect(samePersonContent(a, pool('base-v2.2.0-3.9-os', READY, { team: 'x' }))).toBe(false);
    expect(samePersonContent(a, pool('base-v2.2.0-3.12-os'))).toBe(false);
  });

  it('property: any value of the operator label alone never counts as a change', () => {
    fc.assert(fc.property(fc.string(), fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.string()), (value, labels) => {
      const base = pool('base-v2.2.0-3.9-os', READY, labels);
      const patched = pool('base-v2.2.0-3.9-os', READY, { ...labels, [OPERATOR_VERSION_LABEL]: value });

      expect(samePersonContent(base, patched)).toBe(true);
    }));
  });
});
