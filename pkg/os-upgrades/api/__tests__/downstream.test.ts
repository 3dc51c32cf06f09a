/* global jest */
import { readJobLog } from '../downstream';
import type { ShellStore } from '../resources';

const pod = (name: string, created: string, jobName: string) => ({
  metadata: {
    name, creationTimestamp: created, labels: { 'job-name': jobName }
  }
});

/** Steve with the SQL cache: it answers every pod of the namespace, whatever labelSelector says. */
function sqlCacheSteve(pods: unknown[]) {
  const dispatch = jest.fn((_action: string, payload: { url: string }) => {
    if (payload.url.includes('/log?')) {
      return Promise.resolve({ data: `log of ${ /pods\/([^/]+)\/log/.exec(payload.url)?.[1] }` });
    }

    return Promise.resolve({ data: pods });
  });

  return { store: { dispatch } as unknown as ShellStore, dispatch };
}

describe('readJobLog', () => {
  it('asks Steve with its own filter on the job-name label, and reads the log of that job\'s newest pod only', async() => {
    const { store, dispatch } = sqlCacheSteve([
      pod('other-job-pod', '2024-05-01T09:00:00Z', 'apply-other'),
      pod('mine-1', '2024-05-01T08:00:00Z', 'apply-mine'),
      pod('mine-2', '2024-05-01T08:01:00Z', 'apply-mine'),
    ]);

    await expect(readJobLog(store, 'c-m-1', 'apply-mine')).resolves.toBe('log of mine-2');
    const listUrl = dispatch.mock.calls[0][1].url;

    expect(listUrl).toBe(`/k8s/clusters/c-m-1/v1/pods/cattle-system?filter=${ encodeURIComponent('metadata.labels[job-name]=apply-mine') }`);
    expect(listUrl).not.toContain('labelSelector');
  });

  it('reads no log when none of the answered pods is the job\'s', async() => {
    const { store, dispatch } = sqlCacheSteve([pod('other-job-pod', '2024-05-01T09:00:00Z', 'apply-other')]);

    await expect(readJobLog(store, 'c-m-1', 'apply-mine')).resolves.toBe('');
    expect(dispatch).toHaveBeenCalledTimes(1);
  });
});
