import { CHANNEL_LABEL, labelSummaryField, labelValueCounts, servesSummaryOnly } from '../index';

describe('labelValueCounts', () => {
  it('reads the objects per label value from the summary Steve adds to a list', () => {
    const answer = {
      type:    'collection',
      count:   4,
      data:    [{ id: 'fleet-default/a' }],
      summary: [
        { property: 'metadata.namespace', counts: { 'fleet-default': { total: 4 } } },
        {
          property: labelSummaryField(CHANNEL_LABEL),
          counts:   { 'sl-micro-6.1-base': { total: 3, namespace: { 'fleet-default': 3 } }, kernel: { total: 1 } }
        },
      ],
    };

    expect(labelValueCounts(answer, CHANNEL_LABEL)).toEqual({ 'sl-micro-6.1-base': 3, kernel: 1 });
  });

  it('finds a simple label under the dotted name Steve gives it', () => {
    expect(labelValueCounts({ summary: [{ property: 'metadata.labels.team', counts: { edge: { total: 2 } } }] }, 'team')).toEqual({ edge: 2 });
  });

  it('has no counts without a summary (a Steve that ignores the parameter) and none for a label nothing carries', () => {
    expect(labelValueCounts({
      type: 'collection', count: 40, data: [{}]
    }, CHANNEL_LABEL)).toBeUndefined();
    expect(labelValueCounts(undefined, CHANNEL_LABEL)).toBeUndefined();
    expect(labelValueCounts({ summary: [] }, CHANNEL_LABEL)).toEqual({});
    expect(labelValueCounts({ summary: [{ property: labelSummaryField(CHANNEL_LABEL), counts: { bad: { total: 'x' } } }] }, CHANNEL_LABEL)).toEqual({});
  });
});

describe('servesSummaryOnly', () => {
  it('is Rancher 2.15 and newer, whose Steve answers a summary without the items', () => {
    expect(['v2.15.0', '2.15.1-rc2', 'v2.16.0', 'v3.0.0'].map(servesSummaryOnly)).toEqual([true, true, true, true]);
    expect(['v2.14.4', 'v2.12.0', 'dev', '', 'v2.9.10'].map(servesSummaryOnly)).toEqual([false, false, false, false, false]);
  });
});
