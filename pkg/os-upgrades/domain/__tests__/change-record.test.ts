import { readFileSync } from 'fs';
import { join, resolve } from 'path';
import fc from 'fast-check';
import { channelVersions, PACKAGE_FILES, readPackageFile } from '../../../../tests/support/fixtures';
import {
  Advisory, aggregateChangelog, changeRecord, ChangeRecordInput, changeRecordJson, changeRecordMarkdown, diffPackages, FileAnswer, HistoryEntry, KubeObject,
  Package, parsePackageList, parseUpdateLog, planPoolWrite, readHistory, toOSVersion
} from '../index';

const CHANGELOGS = resolve(__dirname, '../../../../tests/fixtures/synthetic/changelogs');
const V61 = channelVersions('sl-micro-6.1-base');
const V62 = channelVersions('sl-micro-6.2-base');
const B38 = 'base-v2.2.0-3.8-os';
const B39 = 'base-v2.2.0-3.9-os';
const B312 = 'base-v2.2.0-3.12-os';
const B61 = 'base-v2.3.0-6.1-os';
const NOW = 1760000000;

const PACKAGES: Record<string, Package[]> = Object.fromEntries(PACKAGE_FILES.map((name) => [name, parsePackageList(readPackageFile(name))]));
const LOGS: Record<string, Advisory[]> = Object.fromEntries([B38, B312, B61].map((name) => [name, parseUpdateLog(readFileSync(join(CHANGELOGS, `${ name }.updates.log`), 'utf8'))]));

function ok<T>(value: T): FileAnswer<T> {
  return { state: 'ok', value };
}

const ALL_LOGS: Record<string, FileAnswer<Advisory[]>> = {
  [B38]: ok(LOGS[B38]), [B39]: { state: 'missing' }, [B312]: ok(LOGS[B312]), [B61]: ok(LOGS[B61])
};
const ALL_PACKAGES: Record<string, FileAnswer<Package[]>> = Object.fromEntries(Object.entries(PACKAGES).map(([name, list]) => [name, ok(list)]));

/** Echoes the key and its values, so a test sees which sentence the record chose. */
const t = (key: string, values?: Record<string, unknown>) => (values ? `${ key } ${ JSON.stringify(values) }` : key);

function pool(pin: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSImage',
    metadata:   {
      name: 'edge', namespace: 'fleet-default', resourceVersion: '7', annotations: {}
    },
    spec: {
      managedOSVersionName:   pin,
      clusterTargets:         [{ clusterName: 'edge-munich' }],
      clusterRolloutStrategy: { maxUnavailable: 1, partitions: [{ name: 'canary', clusterName: 'edge-munich' }] },
      ...extra,
    },
  };
}

/** The pool as the approval wrote it: the write plan's own object. */
function approved(current: KubeObject, kind: 'approve' | 'rollback', target: string, comment: string): KubeObject {
  const intent = kind === 'approve' ? {
    kind, versionName: target, expectedPin: String((current.spec as Record<string, unknown>).managedOSVersionName), approvedBy: 'alice', comment
  } as const : {
    kind, approvedBy: 'bob', comment
  } as const;
  const plan = planPoolWrite(current, intent, V61, NOW);

  if (!plan.ok) {
    throw new Error(JSON.stringify(plan.reason));
  }

  return plan.object;
}

function lastEntry(object: unknown): HistoryEntry {
  return readHistory(object).entries.slice(-1)[0];
}

function input(object: unknown, entry: HistoryEntry = lastEntry(object), extra: Partial<ChangeRecordInput> = {}): ChangeRecordInput {
  return {
    pool: object, entry, versions: V61, logs: ALL_LOGS, packages: ALL_PACKAGES, generatedAt: '2026-12-02T04:00:00.000Z', ...extra
  };
}

describe('changeRecord', () => {
  const written = approved(pool(B39), 'approve', B312, 'CVE-2024-53104, ticket CHG-42');

  it('names the pool, the move, the images, who approved, when and why', () => {
    const record = changeRecord(input(written));

    expect(record.kind).toBe('approve');
    expect(record.pool).toEqual({ namespace: 'fleet-default', name: 'edge' });
    expect(record.from.version).toBe(B39);
    expect(record.to.version).toBe(B312);
    expect(record.from.image).toBe(toOSVersion(V61.find((v) => v.metadata && (v.metadata as { name: string }).name === B39)).image);
    expect(record.to.image).toBe(toOSVersion(V61.find((v) => v.metadata && (v.metadata as { name: string }).name === B312)).image);
    expect(record.approval).toEqual({
      by: 'alice', at: lastEntry(written).at, comment: 'CVE-2024-53104, ticket CHG-42'
    });
  });

  it('warns, in the record and its Markdown, when nodes that boot the new image would not rejoin their cluster', () => {
    const record = changeRecord(input(written));

    expect(record.to.image).toMatch(/:2\.2\.0-3\.12$/);
    expect(record.nodeLabels?.[0]).toMatchObject({ key: 'elemental.cattle.io/image', reason: { values: { length: record.to.image.length } } });
    expect(changeRecordMarkdown(record, t)).toContain(`**osUpgrades.changeRecord.md.nodeLabels {"key":"elemental.cattle.io/image","length":${ record.to.image.length }}**`);
    const back = changeRecord(input(approved(written, 'rollback', B39, '')));

    expect(back.nodeLabels).toBeUndefined();
    expect(changeRecordMarkdown(back, t)).not.toContain('nodeLabels');
  });

  it('gives the targets and the stages exactly as the pool stores them', () => {
    const record = changeRecord(input(written));
    const spec = written.spec as Record<string, unknown>;

    expect(record.targets).toEqual(spec.clusterTargets);
    expect(record.rolloutStrategy).toEqual(spec.clusterRolloutStrategy);
    expect(changeRecord(input(approved(pool(B39, { clusterRolloutStrategy: undefined }), 'approve', B312, ''))).rolloutStrategy).toBeNull();
  });

  it('lists the advisories the compare computes for the same two images, with their package evidence', () => {
    const record = changeRecord(input(approved(pool(B38), 'approve', B312, '')));
    const compare = aggregateChangelog(V61, B38, B312, LOGS, PACKAGES);

    if (record.advisories.state !== 'read') {
      throw new Error('advisories unread');
    }
    expect(record.advisories.evidence).toBe('packages');
    expect(record.advisories.advisories.map((a) => a.id)).toEqual(compare.advisories.map((a) => a.id));
    expect(record.advisories.advisories.map((a) => a.proof)).toEqual(compare.advisories.map((a) => a.proof));
    expect(record.advisories.cves).toEqual(compare.cves);
    // 3.9 has no log: the record says so instead of leaving the image out.
    expect(record.advisories.gaps.map((gap) => gap.reason)).toEqual([{ key: 'osUpgrades.changeRecord.problem.logMissing', values: { name: B39 } }]);
  });

  it('lists the package changes of the compare\'s package diff', () => {
    const record = changeRecord(input(written));
    const diff = diffPackages(PACKAGES[B39], PACKAGES[B312]);

    if (record.packages.state !== 'read') {
      throw new Error('packages unread');
    }
    expect(record.packages.changes.upgraded.map((c) => c.name)).toEqual(diff.upgraded.map((c) => c.name));
    expect(record.packages.changes.added.map((c) => c.name)).toEqual(diff.added.map((c) => c.name));
    expect(record.packages.changes.removed.map((c) => c.name)).toEqual(diff.removed.map((c) => c.name));
    expect(record.packages.unchanged).toBe(diff.unchanged);
    expect(record.packages.changes.upgraded.find((c) => c.name === 'kernel-default')).toMatchObject({ from: '6.4.0-1.2', to: '6.4.0-1.3' });
  });

  it('says why the packages and the evidence are missing when a package list could not be read', () => {
    const failed = { state: 'error', reason: { key: 'osUpgrades.changelog.fetchError.network' } } as const;
    const record = changeRecord(input(written, undefined, { packages: { ...ALL_PACKAGES, [B312]: failed } }));

    expect(record.packages).toEqual({
      state:    'unread',
      problems: [{ reason: { key: 'osUpgrades.changeRecord.problem.packagesError', values: { name: B312 } }, cause: failed.reason }],
    });
    // Without both lists the compare falls back to the dates: so does the record, and says so.
    expect(record.advisories.state === 'read' && record.advisories.evidence).toBe('date');
  });

  it('says the advisories are unknown across channels without both package lists', () => {
    const across = approved(pool(B39), 'approve', B312, '');
    const entry: HistoryEntry = {
      ...lastEntry(across), from: B312, to: B61
    };
    const record = changeRecord(input(across, entry, { versions: [...V61, ...V62], packages: { [B312]: ALL_PACKAGES[B312], [B61]: undefined } }));

    expect(record.advisories.state).toBe('unread');
    expect(record.advisories.state === 'unread' && record.advisories.problems.map((p) => p.reason.key)).toEqual([
      'osUpgrades.changeRecord.problem.acrossChannels', 'osUpgrades.changeRecord.problem.packagesNotRead'
    ]);
  });

  it('gives the exact spec change the approval wrote, and finds it matching the stored pool', () => {
    const record = changeRecord(input(written));

    expect(record.objectChange).toEqual({
      state:   'read',
      changes: [{
        field: 'managedOSVersionName', before: B39, after: B312
      }]
    });
    expect(record.check).toEqual({ differences: [], laterMoves: 0 });
  });

  it('records the FORCE a roll back adds to the upgrade container', () => {
    const back = approved(written, 'rollback', B39, 'kernel panic on edge-munich');
    const record = changeRecord(input(back));

    expect(record.kind).toBe('rollback');
    expect(record.objectChange.state === 'read' && record.objectChange.changes.map((c) => c.field)).toEqual(['managedOSVersionName', 'upgradeContainer']);
    expect(JSON.stringify(record.objectChange)).toContain('FORCE');
    // What a roll back does to the advisories: takes them away, as the compare says of a downgrade.
    expect(record.advisories.state === 'read' && record.advisories.direction).toBe('downgrade');
    const markdown = changeRecordMarkdown(record, t);

    expect(markdown).toContain('## osUpgrades.changeRecord.md.advisoriesTakenAway');
    expect(markdown).not.toContain('## osUpgrades.changeRecord.md.advisories\n');
    // The container was not set before: said in words, not as a JSON value.
    expect(markdown).toContain('### spec.upgradeContainer\n\nosUpgrades.changeRecord.md.before\n\nosUpgrades.changeRecord.md.absent\n');
  });

  it('says where the stored pool no longer holds what the record says, and how many moves came after', () => {
    const first = lastEntry(written);
    const back = approved(written, 'rollback', B39, '');
    const record = changeRecord(input(back, first));

    expect(record.check.laterMoves).toBe(1);
    expect(record.check.differences).toEqual([{
      field: 'managedOSVersionName', recorded: B312, stored: B39
    }]);

    const edited = JSON.parse(JSON.stringify(written));

    edited.metadata.annotations['os-upgrades.cattle.io/approved-image'] = 'registry.example/other:1';
    expect(changeRecord(input(edited)).check.approvedImageNow).toBe('registry.example/other:1');
  });

  it('says the change was not recorded for an entry written before changes were recorded', () => {
    const old: HistoryEntry = {
      kind: 'approve', from: B38, to: B39, by: 'carol', at: '2025-01-01T00:00:00Z', comment: ''
    };
    const record = changeRecord(input(written, old));

    expect(record.objectChange).toEqual({ state: 'unread', problems: [{ reason: { key: 'osUpgrades.changeRecord.problem.changeNotRecorded' } }] });
    expect(record.from.image).toBe('');
  });

  it('says there is nothing to compare for a first approval', () => {
    const record = changeRecord(input(written, { ...lastEntry(written), from: '' }));

    expect(record.advisories).toEqual({ state: 'unread', problems: [{ reason: { key: 'osUpgrades.changeRecord.problem.noPreviousImage' } }] });
    expect(record.packages.state).toBe('unread');
  });

  it('never throws, whatever the pool and entry hold', () => {
    fc.assert(fc.property(fc.anything(), fc.record({
      kind: fc.constantFrom('approve', 'rollback', 'promote'), from: fc.string(), to: fc.string(), by: fc.string(), at: fc.string(), comment: fc.string()
    }), (object, entry) => {
      const record = changeRecord(input(object, entry as HistoryEntry));

      expect(typeof changeRecordMarkdown(record, t)).toBe('string');
      expect(JSON.parse(changeRecordJson(record, t)).kind).toBe(entry.kind);
    }));
  });
});

describe('changeRecordMarkdown', () => {
  const written = approved(pool(B39), 'approve', B312, 'first line\n# not a heading | `x`');

  it('writes every heading through the person\'s translation', () => {
    const markdown = changeRecordMarkdown(changeRecord(input(written)), t);
    const headings = markdown.split('\n').filter((line) => /^#+ /.test(line) && !line.startsWith('### spec.'));

    expect(headings.length).toBeGreaterThan(5);
    expect(headings.every((line) => line.includes('osUpgrades.changeRecord.md.'))).toBe(true);
  });

  it('keeps the comment as quoted text: it cannot add a heading or break a table', () => {
    const markdown = changeRecordMarkdown(changeRecord(input(written)), t);

    expect(markdown).toContain('> first line\n> \\# not a heading \\| \\`x\\`');
    expect(markdown.split('\n').some((line) => line.startsWith('# not'))).toBe(false);
  });

  it('holds each advisory, its CVEs and the before and after of each spec field written', () => {
    const record = changeRecord(input(written));
    const markdown = changeRecordMarkdown(record, t);

    if (record.advisories.state !== 'read') {
      throw new Error('advisories unread');
    }
    for (const advisory of record.advisories.advisories) {
      expect(markdown).toContain(advisory.id.replace(/[-]/g, '-'));
      advisory.cves.forEach((cve) => expect(markdown).toContain(cve));
    }
    expect(markdown).toContain(`### spec.managedOSVersionName\n\nosUpgrades.changeRecord.md.before\n\n\`\`\`json\n"${ B39 }"\n\`\`\``);
    expect(markdown).toContain(`osUpgrades.changeRecord.md.after\n\n\`\`\`json\n"${ B312 }"\n\`\`\``);
  });

  it('names each part it could not read', () => {
    const markdown = changeRecordMarkdown(changeRecord(input(written, undefined, { packages: {} })), t);

    expect(markdown).toContain(`osUpgrades.changeRecord.problem.packagesNotRead {"name":"${ B39 }"}`);
  });

  it('fences a value holding backticks with a longer fence', () => {
    const odd = approved(pool(B39, { clusterTargets: [{ clusterName: '```' }] }), 'approve', B312, '');
    const markdown = changeRecordMarkdown(changeRecord(input(odd)), t);

    expect(markdown).toContain('````json\n[\n  {\n    "clusterName": "```"\n  }\n]\n````');
  });
});

describe('changeRecordJson', () => {
  it('is the record, with each problem\'s text beside its key', () => {
    const written = approved(pool(B39), 'approve', B312, 'ok');
    const record = changeRecord(input(written, undefined, { packages: {} }));
    const parsed = JSON.parse(changeRecordJson(record, t));

    expect(parsed.objectChange).toEqual(record.objectChange);
    expect(parsed.packages.problems[0].reason).toEqual({
      key: 'osUpgrades.changeRecord.problem.packagesNotRead', values: { name: B39 }, text: `osUpgrades.changeRecord.problem.packagesNotRead {"name":"${ B39 }"}`
    });
  });
});
