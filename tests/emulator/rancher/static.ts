// Serves a production dashboard build (`yarn build`'s dist/) the way Rancher serves its UI, and
// built extensions (`yarn build-pkg`'s dist-pkg/) the way Rancher serves UIPlugin resources.
// Sources: rancher/rancher pkg/ui/routes.go (the UI's files, index.html for every other path of
// the single-page app) and pkg/controllers/dashboard/plugin/index.go, fscache.go (the
// /v1/uiplugins index and the plugins' files).

import fs from 'fs';
import path from 'path';
import { RequestContext, sendNotFound } from '../core/http';
import { JsonObject, asObject, asString } from '../core/json';

const MIME: Record<string, string> = {
  '.html':  'text/html; charset=utf-8',
  '.js':    'application/javascript; charset=utf-8',
  '.mjs':   'application/javascript; charset=utf-8',
  '.css':   'text/css; charset=utf-8',
  '.json':  'application/json',
  '.map':   'application/json',
  '.svg':   'image/svg+xml',
  '.png':   'image/png',
  '.ico':   'image/x-icon',
  '.jpg':   'image/jpeg',
  '.gif':   'image/gif',
  '.woff':  'font/woff',
  '.woff2': 'font/woff2',
  '.ttf':   'font/ttf',
  '.eot':   'application/vnd.ms-fontobject',
  '.txt':   'text/plain; charset=utf-8',
};

/** Sends a file below `root`; false when there is no such file (or the path leaves the root). */
export function sendFile(ctx: RequestContext, root: string, relative: string, cache = true): boolean {
  const file = path.resolve(root, `.${ path.posix.normalize(`/${ relative }`) }`);

  if (!file.startsWith(path.resolve(root)) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    return false;
  }
  ctx.res.statusCode = 200;
  ctx.res.setHeader('Content-Type', MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream');
  ctx.res.setHeader('Cache-Control', cache ? 'public, max-age=3600' : 'no-cache');
  ctx.res.setHeader('Content-Length', fs.statSync(file).size);
  if (ctx.method === 'HEAD') {
    ctx.res.end();
  } else {
    fs.createReadStream(file).pipe(ctx.res);
  }

  return true;
}

export class DashboardUi {
  /** Where the build expects to live (`/` or e.g. `/dashboard/`), read from its index.html. */
  readonly publicPath: string;

  constructor(private readonly dir: string) {
    const index = path.join(dir, 'index.html');

    if (!fs.existsSync(index)) {
      throw new Error(`no dashboard build at ${ dir } (index.html missing): run \`EXCLUDES=os-upgrades yarn build\``);
    }
    const match = /<script[^>]+src="([^"]*?)js\/[^"]+\.js"/.exec(fs.readFileSync(index, 'utf8'));

    this.publicPath = match?.[1] || '/';
  }

  /** Files of the build, index.html for every other page (the router is client-side). */
  serve(ctx: RequestContext): void {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      return sendNotFound(ctx);
    }
    if (this.publicPath !== '/' && (ctx.path === '/' || ctx.path === this.publicPath.replace(/\/$/, ''))) {
      ctx.res.writeHead(302, { Location: this.publicPath });
      ctx.res.end();

      return;
    }
    if (!ctx.path.startsWith(this.publicPath)) {
      return sendNotFound(ctx);
    }
    const relative = ctx.path.slice(this.publicPath.length);

    if (relative && sendFile(ctx, this.dir, relative, !relative.endsWith('.html'))) {
      return;
    }
    if (/\.[a-z0-9]+$/i.test(relative) && !relative.endsWith('.html')) {
      return sendNotFound(ctx);
    }
    sendFile(ctx, this.dir, 'index.html', false);
  }

  /** The build's index.html, whatever the path: what Rancher's UI answers for a path no one claims. */
  serveIndex(ctx: RequestContext): void {
    sendFile(ctx, this.dir, 'index.html', false);
  }
}

/**
 * Without a dashboard build: an index.html as Rancher's UI starts (a page of the single-page
 * app, 200, text/html), for the paths only the UI would answer.
 */
export function sendNoOperatorPage(ctx: RequestContext): void {
  ctx.res.statusCode = 200;
  ctx.res.setHeader('Content-Type', 'text/html; charset=utf-8');
  ctx.res.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rancher</title></head><body><div id="app"></div></body></html>\n');
}

export interface PluginEntry {
  name: string;
  version: string;
  main: string;
  metadata: Record<string, string>;
  /** The build's files by relative path, read once at start: a rebuild of dist-pkg/ while the
   * emulator runs (as `yarn build-pkg` does) cannot break a dashboard loading the extension. */
  files: Map<string, Buffer>;
  /** When the files were read (whole seconds, as HTTP dates have them): their Last-Modified. */
  cachedAt: Date;
}

const DEFAULT_EXTENSION_ANNOTATIONS: Record<string, string> = { 'catalog.cattle.io/ui-extensions-version': '>= 3.0.0 < 4.0.0' };

function readTree(dir: string, prefix = '', out = new Map<string, Buffer>()): Map<string, Buffer> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const relative = prefix ? `${ prefix }/${ entry.name }` : entry.name;

    if (entry.isDirectory()) {
      readTree(path.join(dir, entry.name), relative, out);
    } else if (entry.isFile()) {
      out.set(relative, fs.readFileSync(path.join(dir, entry.name)));
    }
  }

  return out;
}

/** One built extension folder, or undefined while its build is incomplete. */
function readPlugin(dir: string, repoRoot: string): PluginEntry | undefined {
  const manifest = path.join(dir, 'package.json');

  if (!fs.existsSync(manifest)) {
    return undefined;
  }
  const pkg = asObject(JSON.parse(fs.readFileSync(manifest, 'utf8')));
  const name = asString(pkg.name) ?? path.basename(dir);
  const version = asString(pkg.version) ?? '0.0.0';
  const main = asString(pkg.main) ?? `${ name }-${ version }.umd.min.js`;

  if (!fs.existsSync(path.join(dir, main))) {
    return undefined;
  }
  const source = path.join(repoRoot, 'pkg', name, 'package.json');
  let annotations: JsonObject = {};

  if (fs.existsSync(source)) {
    annotations = asObject(asObject(asObject(JSON.parse(fs.readFileSync(source, 'utf8'))).rancher).annotations);
  }
  const metadata: Record<string, string> = { ...DEFAULT_EXTENSION_ANNOTATIONS };

  for (const [key, value] of Object.entries(annotations)) {
    if (typeof value === 'string') {
      metadata[key] = value;
    }
  }
  metadata['catalog.cattle.io/display-name'] = metadata['catalog.cattle.io/display-name'] ?? name;

  return {
    name, version, main, metadata, files: readTree(dir), cachedAt: new Date(Math.floor(Date.now() / 1000) * 1000)
  };
}

/** mtimes of every build's package.json and main file; '' while a build is incomplete. */
function buildStamp(distPkg: string): { stamp: string; newest: number } {
  let newest = 0;
  const parts: string[] = [];

  for (const folder of fs.existsSync(distPkg) ? fs.readdirSync(distPkg).sort() : []) {
    const manifest = path.join(distPkg, folder, 'package.json');

    if (!fs.existsSync(manifest)) {
      return { stamp: '', newest };
    }
    const pkg = asObject(JSON.parse(fs.readFileSync(manifest, 'utf8')));
    const main = path.join(distPkg, folder, asString(pkg.main) ?? '');

    if (!fs.existsSync(main) || !fs.statSync(main).isFile()) {
      return { stamp: '', newest };
    }
    for (const file of [manifest, main]) {
      const mtime = fs.statSync(file).mtimeMs;

      newest = Math.max(newest, mtime);
      parts.push(`${ file }@${ mtime }`);
    }
  }

  return { stamp: parts.join('|'), newest };
}

/**
 * The built extensions in `dist-pkg/<name>-<version>/`, served from memory: a rebuild in progress
 * cannot break a dashboard loading them, and a finished rebuild (settled for two seconds) is picked
 * up on the next /v1/uiplugins request. Their chart annotations come from the source package's
 * `rancher.annotations` (pkg/<name>/package.json) when the repository has it.
 */
export class PluginShelf {
  private entries: PluginEntry[] = [];
  private stamp = '';

  constructor(private readonly distPkg: string, private readonly repoRoot: string) {
    if (!fs.existsSync(distPkg)) {
      throw new Error(`no built extensions at ${ distPkg }: run \`yarn build-pkg <name>\``);
    }
  }

  /** Reads the builds, waiting up to two minutes for one still being written. */
  async load(): Promise<void> {
    for (let waited = 0; waited < 120_000 && !buildStamp(this.distPkg).stamp; waited += 1000) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    this.refresh(true);
    if (!this.entries.length) {
      throw new Error(`no complete extension build in ${ this.distPkg }: is \`yarn build-pkg\` still running?`);
    }
  }

  list(): PluginEntry[] {
    this.refresh(false);

    return this.entries;
  }

  private refresh(force: boolean): void {
    const { stamp, newest } = buildStamp(this.distPkg);

    if (!stamp || stamp === this.stamp || (!force && Date.now() - newest < 2000)) {
      return;
    }
    try {
      this.entries = fs.readdirSync(this.distPkg).sort()
        .map((folder) => readPlugin(path.join(this.distPkg, folder), this.repoRoot))
        .filter((p): p is PluginEntry => !!p);
      this.stamp = stamp;
    } catch {
      // A build being rewritten under us: keep serving the previous one.
    }
  }
}

/** The request's If-Modified-Since, when it names a time at or after `modified` (and no If-None-Match overrides it). */
function notModifiedSince(ctx: RequestContext, modified: Date): boolean {
  const since = ctx.req.headers['if-modified-since'];

  if (!since || ctx.req.headers['if-none-match'] || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
    return false;
  }
  const time = Date.parse(since);

  return !Number.isNaN(time) && modified.getTime() <= time;
}

/**
 * Sends a file of an extension's build as Rancher serves an installed extension's files: its
 * UIPlugin has `noCache: false` (the extension chart's default, rancher/dashboard
 * shell/scripts/extension/helm/charts/ui-plugin-server/values.yaml), so rancher/rancher
 * pkg/api/steve/catalog/plugin.go (`pluginHandler`) answers from the plugin's filesystem cache with
 * Go's `http.FileServer`, which sends the file's modification time as Last-Modified (the time
 * pkg/controllers/dashboard/plugin/fscache.go wrote it: here, when the build was read), answers an
 * If-Modified-Since at or after it with 304 and no body, and sends no Cache-Control and no ETag.
 * The browser then keeps the files for a share of their age (heuristic freshness, RFC 9111 4.2.2)
 * and revalidates them after that.
 */
export function sendPluginFile(ctx: RequestContext, plugin: PluginEntry, relative: string): boolean {
  const body = plugin.files.get(relative);

  if (!body) {
    return false;
  }
  ctx.res.setHeader('Last-Modified', plugin.cachedAt.toUTCString());
  if (notModifiedSince(ctx, plugin.cachedAt)) {
    ctx.res.statusCode = 304;
    ctx.res.end();

    return true;
  }
  ctx.res.statusCode = 200;
  ctx.res.setHeader('Content-Type', MIME[path.extname(relative).toLowerCase()] ?? 'application/octet-stream');
  ctx.res.setHeader('Content-Length', body.length);
  ctx.res.end(ctx.method === 'HEAD' ? undefined : body);

  return true;
}
