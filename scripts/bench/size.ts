// Sizes of the built package: the entry that Rancher loads first and every lazy chunk, raw and gzipped.
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';
import { gzipSync } from 'zlib';

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
  /** What the file is mostly made of (from its source map): package or source file names, largest first. */
  contents?: string[];
}

export interface PackageSizes {
  entry: FileSize;
  chunks: FileSize[];
}

interface SourceMap {
  sources: string[];
  sourcesContent?: (string | null)[];
}

/** The largest contributors to a built file, by the size of their sources: a node_modules package, or a file of ours. */
function contentsOf(dir: string, file: string, count = 4): string[] | undefined {
  const mapFile = join(dir, `${ file }.map`);

  if (!existsSync(mapFile)) {
    return undefined;
  }
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMap;
  const bySource = new Map<string, number>();

  map.sources.forEach((source, i) => {
    const path = source.replace(/^webpack:\/\/[^/]*\//, '').replace(/\?.*$/, '');
    const dependency = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(path);
    const name = dependency ? dependency[1] : path.replace(/^\.\//, '');

    if (!name.startsWith('webpack/')) {
      bySource.set(name, (bySource.get(name) ?? 0) + (map.sourcesContent?.[i]?.length ?? 0));
    }
  });

  return [...bySource].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name]) => name);
}

function sizeOf(dir: string, file: string): FileSize {
  const bytes = readFileSync(join(dir, file));

  return {
    file, raw: statSync(join(dir, file)).size, gzip: gzipSync(bytes, { level: 9 }).length, contents: contentsOf(dir, file)
  };
}

export function measurePackage(distDir: string, name: string): PackageSizes {
  const entryName = `${ name }.umd.min.js`;
  const files = readdirSync(distDir).filter((f) => f.endsWith('.js') && f !== entryName);

  return {
    entry:  sizeOf(distDir, entryName),
    chunks: files.map((f) => sizeOf(distDir, f)).sort((a, b) => b.raw - a.raw),
  };
}
