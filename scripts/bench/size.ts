// Sizes of the built package: the entry that Rancher loads first and every lazy chunk, raw and gzipped.
import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';
import { gzipSync } from 'zlib';

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}

export interface PackageSizes {
  entry: FileSize;
  chunks: FileSize[];
}

function sizeOf(dir: string, file: string): FileSize {
  const bytes = readFileSync(join(dir, file));

  return {
    file, raw: statSync(join(dir, file)).size, gzip: gzipSync(bytes, { level: 9 }).length
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
