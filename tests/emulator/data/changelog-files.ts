// A plain static file host inside the emulator, as an administrator would host changelog files:
// GET /changelog-files/<version>.updates.log, /changelog-files/<version>.packages, and
// /changelog-files/<channel>.packages.tar for the channels in TAR_CHANNELS (the layout of
// rancher/elemental-channels `channels/<channel>.packages.tar`: one `<version>.packages` per image).
// No login: a file host knows nothing of Rancher's sessions. The seed's channels point at it
// through the annotation `os-upgrades.cattle.io/changelog-url` (seed.ts).

import { packTar } from 'modern-tar';
import { ServedFiles } from './files';
import { RequestContext, sendNotFound, sendText } from '../core/http';
import { asObject, asString, isObject } from '../core/json';

export const CHANGELOG_FILES_PATH = '/changelog-files/';

/** The seed channels that publish a package tar (the others keep `.packages` beside the log). */
export const TAR_CHANNELS = new Set(['sl-micro-6.1-base']);

/** The versions a channel file lists, by name. */
function channelVersionNames(text: string | undefined): string[] {
  try {
    const entries: unknown = JSON.parse(text ?? '[]');

    return Array.isArray(entries) ? entries.filter(isObject).map((entry) => asString(asObject(entry.metadata).name) ?? '').filter(Boolean) : [];
  } catch {
    return [];
  }
}

export async function packagesTar(files: ServedFiles, channel: string): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const entries = channelVersionNames(files.channelFile(channel)).flatMap((name) => {
    const text = files.file('packages', name);

    if (text === undefined) {
      return [];
    }
    const body = encoder.encode(text);

    return [{
      header: {
        name: `${ name }.packages`, size: body.length, type: 'file' as const
      },
      body
    }];
  });

  return packTar(entries);
}

export async function serveChangelogFile(ctx: RequestContext, files: ServedFiles): Promise<void> {
  const name = decodeURIComponent(ctx.path.slice(CHANGELOG_FILES_PATH.length));
  let match: RegExpExecArray | null;

  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    return sendNotFound(ctx);
  }
  if ((match = /^([^/]+)\.packages\.tar$/.exec(name)) && TAR_CHANNELS.has(match[1])) {
    const tar = Buffer.from(await packagesTar(files, match[1]));

    ctx.res.statusCode = 200;
    ctx.res.setHeader('Content-Type', 'application/x-tar');
    ctx.res.setHeader('Content-Length', tar.length);
    ctx.res.end(tar);

    return;
  }
  let text: string | undefined;

  if ((match = /^([^/]+)\.updates\.log$/.exec(name))) {
    text = files.file('changelog', match[1]);
  } else if ((match = /^([^/]+)\.packages$/.exec(name))) {
    text = files.file('packages', match[1]);
  }
  if (text === undefined) {
    return sendNotFound(ctx);
  }
  ctx.res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  sendText(ctx, 200, text);
}
