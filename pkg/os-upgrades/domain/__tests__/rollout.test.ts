import { rolloutOf } from '../rollout';

const pool = (conditions: unknown[], generation?: number) => ({ metadata: { generation }, status: { conditions } });

describe('rollout state', () => {
  it('is done when Ready is true for the current generation', () => {
    expect(rolloutOf(pool([{
      type: 'Ready', status: 'True', observedGeneration: 2
    }], 2)).phase).toBe('done');
  });

  it('is progressing while Ready is false, with its message', () => {
    expect(rolloutOf(pool([{
      type: 'Ready', status: 'False', message: 'NotReady(1) [Cluster edge-1]'
    }]))).toEqual({ phase: 'progressing', message: 'NotReady(1) [Cluster edge-1]' });
  });

  it('is progressing while Ready describes an older generation of the pool', () => {
    expect(rolloutOf(pool([{
      type: 'Ready', status: 'True', observedGeneration: 1
    }], 2)).phase).toBe('progressing');
  });

  it('is an error when a condition reports a failure', () => {
    expect(rolloutOf(pool([{
      type: 'Ready', status: 'False', reason: 'Error', message: 'upgrade pod failed'
    }]))).toEqual({ phase: 'error', message: 'upgrade pod failed' });
  });

  it('is unknown without conditions and never throws on garbage', () => {
    expect(rolloutOf({}).phase).toBe('unknown');
    expect(rolloutOf({ status: { conditions: 'nope' } }).phase).toBe('unknown');
    expect(rolloutOf(null).phase).toBe('unknown');
  });
});
