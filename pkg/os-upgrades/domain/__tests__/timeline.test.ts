import { Advisory, asOSVersions, channelContainers } from '..';
import { channelVersions } from '../../../../tests/support/fixtures';
import { broughtBy, pageCount, timelinePage } from '../timeline';

const containers = channelContainers(asOSVersions(channelVersions('sl-micro-6.1-base')), 'sl-micro-6.1-base');
const [v312, v39, v38] = containers;

function advisory(id: string, severity: Advisory['severity'], date: number): Advisory {
  return {
    id, severity, date, type: 'security', title: id, references: [], description: '', packages: []
  };
}

describe('timeline', () => {
  it('pages the images oldest first, newest page first', () => {
    expect(timelinePage(containers, 0, 2).map((version) => version.name)).toEqual([v39.name, v312.name]);
    expect(timelinePage(containers, 1, 2).map((version) => version.name)).toEqual([v38.name]);
    expect(pageCount(containers, 2)).toBe(2);
    expect(pageCount([], 2)).toBe(1);
  });

  it('counts what an image brought since the image before it (repeated old advisories do not count)', () => {
    const logs = { [v312.name]: [advisory('a', 'critical', 1732700000), advisory('b', 'low', 1732700001), advisory('old', 'critical', 1732000000)] };

    expect(broughtBy(containers, v312, logs)).toMatchObject({
      total: 2, critical: 1, low: 1
    });
  });

  it('counts the whole log of the oldest image, and nothing for an image without log', () => {
    expect(broughtBy(containers, v38, { [v38.name]: [advisory('a', '', 1)] })).toMatchObject({ total: 1, none: 1 });
    expect(broughtBy(containers, v39, {})).toBeUndefined();
  });
});
