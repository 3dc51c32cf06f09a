import { CHANNEL_LABEL, labelSummaryField, labelValueCounts } from '../index';

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
