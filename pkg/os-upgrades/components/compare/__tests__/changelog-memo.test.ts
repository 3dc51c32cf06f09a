import { asOSVersions, Advisory, planChangelog } from '../../../domain';
import { channelVersions } from '../../../../../tests/support/fixtures';
import { advisoryIndex, aggregatedChangelog } from '../changelog-memo';

const versions = asOSVersions(channelVersions('sl-micro-6.1-base'));
const plan = planChangelog(versions, 'base-v2.2.0-3.8-os', 'base-v2.2.0-3.12-os');

function log(id: string): Advisory[] {
  return [{
    id, severity: 'important', date: 1732700000, type: 'security', title: id, description: '', references: [], packages: []
  } as unknown as Advisory];
}

describe('aggregatedChangelog', () => {
  it('aggregates a compare once for the same files, and again when a file changed', () => {
    const logs = { 'base-v2.2.0-3.12-os': log('A') };
    const first = aggregatedChangelog('old→new', plan, logs, {});

    expect(first.advisories.map((entry) => entry.id)).toEqual(['A']);
    expect(aggregatedChangelog('old→new', plan, { ...logs }, {})).toBe(first);
    expect(advisoryIndex(first)).toBe(advisoryIndex(first));

    const retried = aggregatedChangelog('old→new', plan, { ...logs, 'base-v2.2.0-3.9-os': log('B') }, {});

    expect(retried).not.toBe(first);
    expect(retried.advisories.map((entry) => entry.id).sort()).toEqual(['A', 'B']);
  });
});
