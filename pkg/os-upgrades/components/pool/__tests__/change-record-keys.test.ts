import { readFileSync } from 'fs';
import { join } from 'path';
import jsyaml from 'js-yaml';
import {
  changeRecord, ChangeRecordInput, changeRecordJson, changeRecordMarkdown, FileAnswer, HistoryEntry, HistoryKind
} from '../../../domain';
import { NEW, OLD, poolObject, VERSIONS } from '../../../domain/__tests__/pool-test-data';

const L10N = join(__dirname, '../../../l10n');
const load = (file: string) => (jsyaml as unknown as { load(text: string): unknown }).load(readFileSync(join(L10N, file), 'utf8'));

function text(tree: unknown, key: string): string | undefined {
  const value = key.split('.').reduce((node: unknown, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), tree);

  return typeof value === 'string' && value.trim() ? value : undefined;
}

/** Every key the record's Markdown and JSON ask for, over records in each state a part can be in. */
function keysAsked(): Set<string> {
  const keys = new Set<string>();
  const t = (key: string) => {
    keys.add(key);

    return key;
  };
  const answers: FileAnswer<never>[] = [
    { state: 'missing' }, { state: 'noService', reason: 'unknownApi' }, { state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.network' } }, { state: 'loading' }, undefined,
  ];
  const kinds: HistoryKind[] = ['approve', 'rollback', 'promote', 'withdraw', 'restore'];
  const base: HistoryEntry = {
    kind: 'approve', from: OLD.name, to: NEW.name, by: 'alice', at: '2026-01-01T00:00:00Z', comment: 'why'
  };
  const inputs: ChangeRecordInput[] = [
    ...answers.map((answer) => ({
      pool: poolObject({ pin: NEW.name }), entry: base, versions: VERSIONS, logs: { [NEW.name]: answer }, packages: { [OLD.name]: answer }, generatedAt: ''
    })),
    ...kinds.map((kind) => ({
      pool:  poolObject({ pin: OLD.name }),
      entry: {
        ...base,
        kind,
        changes: [{
          field: 'managedOSVersionName', before: OLD.name, after: NEW.name
        }],
        toImage: 'x'
      },
      versions:    VERSIONS,
      logs:        {},
      packages:    {},
      generatedAt: ''
    })),
    {
      pool: {}, entry: { ...base, from: '' }, versions: [], logs: {}, packages: {}, generatedAt: ''
    },
    {
      pool: {}, entry: { ...base, from: 'gone' }, versions: VERSIONS, logs: {}, packages: {}, generatedAt: ''
    },
    {
      pool: {}, entry: base, versions: [{ ...OLD, channel: 'other' }, NEW], logs: {}, packages: {}, generatedAt: ''
    },
    {
      pool: {}, entry: { ...base, from: NEW.name }, versions: VERSIONS, logs: {}, packages: {}, generatedAt: ''
    },
    {
      pool:  {},
      entry: {
        ...base, from: NEW.name, to: OLD.name
      },
      versions:    VERSIONS,
      logs:        {},
      packages:    {},
      generatedAt: ''
    },
  ];

  for (const input of inputs) {
    const record = changeRecord(input);

    changeRecordMarkdown(record, t);
    changeRecordJson(record, t);
  }

  return keys;
}

describe('the change record\'s texts', () => {
  const asked = [...keysAsked()];

  it('asks for its sentences and headings', () => {
    expect(asked).toEqual(expect.arrayContaining([
      'osUpgrades.changeRecord.md.objectChange', 'osUpgrades.changeRecord.problem.logNoService', 'osUpgrades.changeRecord.problem.changeNotRecorded', 'osUpgrades.changeRecord.md.title.rollback',
      'osUpgrades.changeRecord.problem.acrossChannels', 'osUpgrades.changeRecord.md.evidence.none', 'osUpgrades.changelog.problem.unknownVersion',
      'osUpgrades.changeRecord.md.advisoriesTakenAway',
    ]));
  });

  it.each(['en-us.yaml', 'zh-hans.yaml'])('finds each in %s', (file) => {
    const tree = load(file);

    expect(asked.filter((key) => !text(tree, key))).toEqual([]);
  });
});
