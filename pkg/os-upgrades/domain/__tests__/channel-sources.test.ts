import { channelWithSources } from '../channel-sources';
import { CHANGELOG_URL_ANNOTATION, PACKAGES_TAR_ANNOTATION } from '../keys';

const channel = (annotations?: Record<string, string>) => ({
  metadata: {
    name: 'sl-micro', namespace: 'fleet-default', resourceVersion: '7', annotations
  },
  spec:   { type: 'json' },
  status: { lastSyncedTime: '2026-12-01T10:00:00Z' },
});

describe('channelWithSources', () => {
  it('sets both sources trimmed and keeps every other field as read', () => {
    const written = channelWithSources(channel({ team: 'os' }), { template: ' https://x/{name}.log ', tarUrl: 'https://x/{name}.tar' });

    expect(written).toEqual({
      ...channel(),
      metadata: {
        ...channel().metadata,
        annotations: {
          team: 'os', [CHANGELOG_URL_ANNOTATION]: 'https://x/{name}.log', [PACKAGES_TAR_ANNOTATION]: 'https://x/{name}.tar'
        }
      },
    });
  });

  it('removes a source left empty, and does not change the channel it was given', () => {
    const read = channel({ [CHANGELOG_URL_ANNOTATION]: 'https://old/{name}.log', [PACKAGES_TAR_ANNOTATION]: 'https://old/{name}.tar' });
    const written = channelWithSources(read, { template: '  ', tarUrl: 'https://new/{name}.tar' });

    expect((written.metadata as { annotations: Record<string, string> }).annotations).toEqual({ [PACKAGES_TAR_ANNOTATION]: 'https://new/{name}.tar' });
    expect(read.metadata.annotations).toEqual({ [CHANGELOG_URL_ANNOTATION]: 'https://old/{name}.log', [PACKAGES_TAR_ANNOTATION]: 'https://old/{name}.tar' });
  });

  it('reads a channel without metadata annotations', () => {
    expect(channelWithSources({ metadata: { name: 'c' } }, { template: 'https://t', tarUrl: '' })).toEqual({ metadata: { name: 'c', annotations: { [CHANGELOG_URL_ANNOTATION]: 'https://t' } } });
  });
});
