// Fixture folders (format in docs/emulator.md), holding real Elemental data: channel files as
// rancher/elemental-channels publishes them (channels/*.json, read by rancher/elemental-operator
// pkg/syncer/syncer.go for a channel of type json) and its package lists (tests/fixtures/elemental/README.md).
//   channels/<channel>.json          a channel file; one ManagedOSVersionChannel per file
//   packages/<version>.packages      package list of a ManagedOSVersion
//   changelogs/<version>.updates.log update log of a ManagedOSVersion
//   seed/*.yaml|*.yml|*.json         extra objects (pools, fleet clusters, cluster groups, channels…)
// Anything else in a folder (crds/, README.md…) is ignored. Later folders win over earlier ones.

import fs from 'fs';
import path from 'path';
import { safeLoadAll } from 'js-yaml';
import { JsonObject, isObject } from '../core/json';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const DEFAULT_FIXTURE_DIRS = ['tests/fixtures/elemental', 'tests/fixtures/synthetic', 'tests/fixtures/clusters'].map((d) => path.join(REPO_ROOT, d));

export interface FixtureData {
  /** Channel name → the channel file's text, as served to the operator. */
  channels: Map<string, string>;
  /** Version name → package list text. */
  packages: Map<string, string>;
  /** Version name → update log text. */
  changelogs: Map<string, string>;
  /** Objects to create after the channels are synced. */
  seed: JsonObject[];
}

export function emptyFixtures(): FixtureData {
  return {
    channels: new Map(), packages: new Map(), changelogs: new Map(), seed: []
  };
}

function filesIn(dir: string, suffix: string): string[] {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    return [];
  }

  return fs.readdirSync(dir).filter((f) => f.endsWith(suffix) && fs.statSync(path.join(dir, f)).isFile()).sort();
}

function readInto(map: Map<string, string>, dir: string, suffix: string): void {
  for (const file of filesIn(dir, suffix)) {
    map.set(file.slice(0, -suffix.length), fs.readFileSync(path.join(dir, file), 'utf8'));
  }
}

/** Objects of a seed file: YAML documents, a JSON object or array, or a `List`'s items. */
export function parseSeedText(text: string): JsonObject[] {
  const out: JsonObject[] = [];

  for (const doc of safeLoadAll(text)) {
    const docs = Array.isArray(doc) ? doc : [doc];

    for (const item of docs) {
      if (isObject(item) && Array.isArray(item.items) && String(item.kind ?? '').endsWith('List')) {
        out.push(...item.items.filter(isObject));
      } else if (isObject(item)) {
        out.push(item);
      }
    }
  }

  return out;
}

export function loadFixtureDirs(dirs: string[]): FixtureData {
  const data = emptyFixtures();

  for (const dir of dirs) {
    if (!fs.existsSync(dir)) {
      throw new Error(`fixture folder not found: ${ dir }`);
    }
    readInto(data.channels, path.join(dir, 'channels'), '.json');
    readInto(data.packages, path.join(dir, 'packages'), '.packages');
    readInto(data.changelogs, path.join(dir, 'changelogs'), '.updates.log');
    const seedDir = path.join(dir, 'seed');

    for (const suffix of ['.yaml', '.yml', '.json']) {
      for (const file of filesIn(seedDir, suffix)) {
        data.seed.push(...parseSeedText(fs.readFileSync(path.join(seedDir, file), 'utf8')));
      }
    }
  }

  return data;
}
