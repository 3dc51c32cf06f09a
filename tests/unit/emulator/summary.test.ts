/** @jest-environment node */
// Steve's metadata.state, against cases of rancher/wrangler pkg/summary/summarizers_test.go where
// it has them, and the rules of summarizers.go otherwise.
import { KubeObject } from '../../emulator/kube/store';
import { summarize } from '../../emulator/steve/summary';

function object(apiVersion: string, kind: string, status?: Record<string, unknown>, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: {
      name: 'x', namespace: 'fleet-default', ...extra
    },
    ...(status ? { status } : {})
  } as KubeObject;
}

function cond(type: string, status: string, reason = '', message = ''): Record<string, string> {
  return {
    type, status, reason, message
  };
}

describe('Steve state summary (wrangler pkg/summary)', () => {
  // summarizers_test.go TestCheckGVKErrors: "gvk found, condition is error" / "is not an error".
  it('makes a HelmChart Failed=True an error and Failed=False none', () => {
    expect(summarize(object('helm.cattle.io/v1', 'HelmChart', { conditions: [cond('Failed', 'True')] }))).toMatchObject({ name: 'error', error: true });
    expect(summarize(object('helm.cattle.io/v1', 'HelmChart', { conditions: [cond('Failed', 'False')] })).error).toBe(false);
  });

  // summarizers_test.go: "gvk not found" falls back to FallbackConditionErrorMapping.
  it('uses the fallback error conditions for other kinds: Stalled=True, Failed=True', () => {
    expect(summarize(object('elemental.cattle.io/v1beta1', 'ManagedOSImage', { conditions: [cond('Stalled', 'True', 'Stuck', 'no progress')] })))
      .toEqual({
        name: 'error', error: true, transitioning: false, message: 'no progress'
      });
    expect(summarize(object('elemental.cattle.io/v1beta1', 'ManagedOSImage', { conditions: [cond('Failed', 'True')] })).error).toBe(true);
  });

  it('shows Ready=False as unavailable and transitioning, never an error, whatever the reason', () => {
    for (const reason of ['Synchronizing', 'FailedToSync', 'Error', 'InvalidConfiguration']) {
      expect(summarize(object('elemental.cattle.io/v1beta1', 'ManagedOSVersionChannel', { conditions: [cond('Ready', 'False', reason, 'started synchronization pod')] })))
        .toEqual({
          name: 'unavailable', error: false, transitioning: true, message: 'started synchronization pod'
        });
    }
  });

  it('makes Ready=Unknown an error (TransitioningFalse) and Created=Unknown transitioning (TransitioningUnknown)', () => {
    expect(summarize(object('fleet.cattle.io/v1alpha1', 'Bundle', { conditions: [cond('Ready', 'Unknown', '', 'lost')] }))).toMatchObject({ name: 'unavailable', error: true });
    expect(summarize(object('fleet.cattle.io/v1alpha1', 'Bundle', { conditions: [cond('Created', 'Unknown')] }))).toMatchObject({
      name: 'creating', transitioning: true, error: false
    });
    expect(summarize(object('fleet.cattle.io/v1alpha1', 'Bundle', { conditions: [cond('Created', 'False', '', 'boom')] }))).toMatchObject({ name: 'creating', error: true });
  });

  it('is active with kstatus\' "Resource is current" for a Ready object and one without status', () => {
    expect(summarize(object('elemental.cattle.io/v1beta1', 'ManagedOSImage', { conditions: [cond('Ready', 'True'), cond('FleetBundleCreation', 'True')] })))
      .toEqual({
        name: 'active', error: false, transitioning: false, message: 'Resource is current'
      });
    expect(summarize(object('elemental.cattle.io/v1beta1', 'ManagedOSVersion'))).toMatchObject({ name: 'active', message: 'Resource is current' });
  });

  it('takes status.display (Fleet) first, the phase of a namespace, and removing for a deleted object', () => {
    expect(summarize(object('fleet.cattle.io/v1alpha1', 'Cluster', {
      display: {
        state: 'WaitApplied', transitioning: true, message: 'waiting'
      }
    })))
      .toMatchObject({
        name: 'waitapplied', transitioning: true, message: 'waiting'
      });
    expect(summarize(object('v1', 'Namespace', { phase: 'Active' }))).toMatchObject({ name: 'active', message: '' });
    expect(summarize(object('elemental.cattle.io/v1beta1', 'ManagedOSImage', {}, { deletionTimestamp: '2024-01-01T00:00:00Z' })))
      .toMatchObject({ name: 'removing', transitioning: true });
  });

  it('reports a spec not yet observed as in-progress (kstatus generic rules)', () => {
    expect(summarize(object('elemental.cattle.io/v1beta1', 'ManagedOSImage', { observedGeneration: 1 }, { generation: 2 })))
      .toMatchObject({
        name: 'in-progress', transitioning: true, message: 'ManagedOSImage generation is 2, but latest observed generation is 1'
      });
  });
});
