// Where a version's changelog files live (docs/architecture.md, "Changelog files"), and whether the UI may fetch them.
import { CHANGELOG_URL_ANNOTATION, OSVersion, PACKAGES_TAR_ANNOTATION } from '../domain';


/** Rancher setting (management.cattle.io.setting): comma-separated origins an admin trusts. */
export const CHANGELOG_ORIGINS_SETTING = 'os-upgrades-changelog-origins';

export type ChangelogUrlSource = 'version' | 'channel' | 'default';

export interface ChangelogUrls {
  /** Absolute URL of `<name>.updates.log`. */
  log: string;
  /** Absolute URL of `<name>.packages`, in the same folder as the log. */
  packages: string;
  source: ChangelogUrlSource;
  /** The source the log belongs to, probed once per session: one key per template or folder. */
  logSource: string;
  /** The channel's package-list tar (annotation `os-upgrades.cattle.io/packages-tar-url`), absolute. */
  packagesTar?: string;
}

export type UrlVerdict =
  | { trusted: true; sameOrigin: boolean }
  | { trusted: false; reason: 'invalidUrl' | 'notHttp' | 'untrustedOrigin'; origin: string };

function annotation(channel: unknown, key: string): string {
  const metadata = (channel as { metadata?: { annotations?: Record<string, unknown> } } | undefined)?.metadata;
  const value = metadata?.annotations?.[key];

  return typeof value === 'string' ? value.trim() : '';
}

function channelTemplate(channel: unknown): string {
  return annotation(channel, CHANGELOG_URL_ANNOTATION);
}

/** The channel's package-list tar URL, absolute; '' when the channel names none. */
export function packagesTarUrl(channel: unknown, serverOrigin: string): string {
  const url = annotation(channel, PACKAGES_TAR_ANNOTATION);

  return url ? absolute(url, serverOrigin) : '';
}

function absolute(url: string, serverOrigin: string): string {
  try {
    return new URL(url, `${ serverOrigin }/`).href;
  } catch {
    // Kept as written: trustUrl refuses it with `invalidUrl`.
    return url;
  }
}

/** The `.packages` file beside a log: same folder, `<name>.packages`. */
export function packagesUrlBeside(logUrl: string, name: string): string {
  const file = `${ encodeURIComponent(name) }.packages`;

  try {
    const url = new URL(logUrl);

    url.search = '';
    url.hash = '';
    url.pathname = url.pathname.replace(/[^/]*$/, file);

    return url.href;
  } catch {
    return logUrl.replace(/[?#].*$/, '').replace(/[^/]*$/, file);
  }
}

export type LogUrl = Pick<ChangelogUrls, 'log' | 'source' | 'logSource'>;

/** A channel's template as an absolute URL, once per template: every version of the channel has it. */
const absoluteTemplates = new Map<string, string>();

function absoluteTemplate(template: string, serverOrigin: string): string {
  const key = `${ serverOrigin } ${ template }`;
  let url = absoluteTemplates.get(key);

  if (url === undefined) {
    url = absolute(template, serverOrigin);
    absoluteTemplates.set(key, url);
  }

  return url;
}

/**
 * Where a version's update log is, first found wins: the version's `spec.metadata.changelogURL`,
 * the channel's annotation template, the operator's endpoint. Relative URLs are resolved against
 * the Rancher server.
 */
export function logUrl(version: Pick<OSVersion, 'name' | 'changelogURL'>, channel: unknown, serverOrigin: string): LogUrl {
  const name = encodeURIComponent(version.name);
  const fromVersion = version.changelogURL?.trim();
  const template = channelTemplate(channel);

  if (fromVersion) {
    const log = absolute(fromVersion, serverOrigin);

    return {
      log, source: 'version', logSource: `version:${ log.replace(/[?#].*$/, '').replace(/[^/]*$/, '') }`
    };
  }
  if (template) {
    return {
      log: absolute(template.split('{name}').join(name), serverOrigin), source: 'channel', logSource: `channel:${ absoluteTemplate(template, serverOrigin) }`
    };
  }

  return {
    log: absolute(`/elemental/changelog/${ name }/${ name }.updates.log`, serverOrigin), source: 'default', logSource: 'default'
  };
}

/** The URLs of a version's changelog files: its log (logUrl), the package list beside it, the channel's tar. */
export function changelogUrls(version: Pick<OSVersion, 'name' | 'changelogURL'>, channel: unknown, serverOrigin: string): ChangelogUrls {
  const { log, source, logSource } = logUrl(version, channel, serverOrigin);
  const packagesTar = packagesTarUrl(channel, serverOrigin);

  return {
    log, packages: packagesUrlBeside(log, version.name), source, logSource, ...(packagesTar ? { packagesTar } : {})
  };
}

/** Normalised origins (`https://host:port`) from the setting's comma-separated value. */
export function parseAllowedOrigins(value: unknown): string[] {
  if (typeof value !== 'string') {
    return [];
  }
  const origins = new Set<string>();

  for (const part of value.split(',')) {
    try {
      const url = new URL(part.trim());

      if (url.protocol === 'http:' || url.protocol === 'https:') {
        origins.add(url.origin);
      }
    } catch {
      // Not a URL: ignored, like a missing setting.
    }
  }

  return [...origins];
}

/**
 * A URL from a channel is followed only when it is on the Rancher server itself or on an
 * origin the administrator allowed, and only over http(s).
 */
export function trustUrl(url: string, serverOrigin: string, allowedOrigins: readonly string[]): UrlVerdict {
  let parsed: URL;

  try {
    parsed = new URL(url);
  } catch {
    return {
      trusted: false, reason: 'invalidUrl', origin: ''
    };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return {
      trusted: false, reason: 'notHttp', origin: parsed.protocol
    };
  }
  if (parsed.username || parsed.password) {
    return {
      trusted: false, reason: 'invalidUrl', origin: parsed.origin
    };
  }
  if (parsed.origin === serverOrigin) {
    return { trusted: true, sameOrigin: true };
  }
  if (allowedOrigins.includes(parsed.origin)) {
    return { trusted: true, sameOrigin: false };
  }

  return {
    trusted: false, reason: 'untrustedOrigin', origin: parsed.origin
  };
}

/**
 * Where an answer came from after redirects (`final`) must pass the same check as the URL asked
 * for: its own origin, the server's, or an allowed one. Otherwise the answer is not used, and the
 * reason names the origin it came from.
 */
export function redirectRefusal(requested: string, final: string, serverOrigin: string, allowedOrigins: readonly string[]): { reason: 'redirected'; origin: string } | undefined {
  if (!final || final === requested) {
    return undefined;
  }
  let origin: string;

  try {
    origin = new URL(final).origin;
    if (origin === new URL(requested).origin) {
      return undefined;
    }
  } catch {
    return { reason: 'redirected', origin: '' };
  }

  return trustUrl(final, serverOrigin, allowedOrigins).trusted ? undefined : { reason: 'redirected', origin };
}
