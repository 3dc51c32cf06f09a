import { CHANGELOG_URL_ANNOTATION, PACKAGES_TAR_ANNOTATION } from './keys';
import type { KubeObject } from './types';

/** A channel's two changelog sources as a person types them ('' for none). */
export interface TypedSources {
  template: string;
  tarUrl: string;
}

/**
 * The channel with its changelog URL template and package-tar URL set as typed (trimmed), and
 * each removed when left empty; every other field as read.
 */
export function channelWithSources(channel: KubeObject, sources: TypedSources): KubeObject {
  const metadata = (channel.metadata ?? {}) as Record<string, unknown>;
  const annotations = { ...(metadata.annotations as Record<string, string> | undefined) };
  const put = (name: string, value: string) => {
    if (value.trim()) {
      annotations[name] = value.trim();
    } else {
      delete annotations[name];
    }
  };

  put(CHANGELOG_URL_ANNOTATION, sources.template);
  put(PACKAGES_TAR_ANNOTATION, sources.tarUrl);

  return { ...channel, metadata: { ...metadata, annotations } };
}
