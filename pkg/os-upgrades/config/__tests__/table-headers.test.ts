// Every column's title is in both languages (a missing key shows the raw key as the title), and
// each table names a column once (its cell slot `cell:<name>` is found by that name).
import { readFileSync } from 'fs';
import { join } from 'path';
import jsyaml from 'js-yaml';
import {
  CHANNEL_HEADERS, EXPOSURE_HEADERS, NODE_ROLLOUT_HEADERS, POOL_HEADERS, TableHeader
} from '../table-headers';

const L10N = join(__dirname, '../../l10n');
const load = (file: string) => (jsyaml as unknown as { load(text: string): unknown }).load(readFileSync(join(L10N, file), 'utf8'));
const LANGUAGES = { 'en-us': load('en-us.yaml'), 'zh-hans': load('zh-hans.yaml') };

function text(messages: unknown, key: string): unknown {
  return key.split('.').reduce((node: unknown, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), messages);
}

const TABLES: [string, TableHeader[]][] = [
  ['pools', POOL_HEADERS], ['channels', CHANNEL_HEADERS], ['fleet exposure', EXPOSURE_HEADERS], ['node rollout', NODE_ROLLOUT_HEADERS],
];

describe.each(TABLES)('the %s table', (_table, headers) => {
  it.each(Object.entries(LANGUAGES))('has every column title in %s', (_language, messages) => {
    for (const header of headers) {
      expect([header.labelKey, text(messages, header.labelKey)]).toEqual([header.labelKey, expect.stringMatching(/\S/)]);
    }
  });

  it('names each column once', () => {
    const names = headers.map((header) => header.name);

    expect(new Set(names).size).toBe(names.length);
  });
});
