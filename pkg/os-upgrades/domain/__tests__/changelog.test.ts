import fc from 'fast-check';
import { channelVersions, toManagedOSVersion } from '../../../../tests/support/fixtures';
import { seededRandom, shuffled, syntheticChannelEntries, syntheticUpdateLog } from '../../../../tests/support/synthetic';
import {
  Advisory, aggregateChangelog, aggregatePlan, compareAdvisories, parseUpdateLog, planChangelog, UpdateLogs
} from '../index';

const V61 = channelVersions('sl-micro-6.1-base');
const C38 = 1731339461;
const C39 = 1732636077;
const C312 = 1732723652;

function advisory(id: string, severity: Advisory['severity'], date: number | undefined, cves: string[] = []): Advisory {
  return {
    id,
    type:        'security',
    title:       id,
    severity,
    date,
    description: '',
    packages:    [],
    references:  cves.map((cve) => ({
      href: `https://www.suse.com/security/cve/${ cve }/`, id: cve, title: cve, type: 'cve'
    })),
  };
}

const ids = (list: { id: string }[]) => list.map((a) => a.id);

describe('aggregateChangelog (rule "Changelog")', () => {
  const logs: UpdateLogs = {
    'base-v2.2.0-3.9-os': [
      advisory('A-low', 'low', C39 - 10),
      advisory('A-crit', 'critical', C39 - 20, ['CVE-2024-11053']),
      advisory('A-stale', 'critical', C38 - 1, ['CVE-2023-0001']),
    ],
    'base-v2.2.0-3.12-os': [
      advisory('A-crit', 'critical', C39 - 20, ['CVE-2024-11053']),
      advisory('B-imp', 'important', C312 - 5, ['CVE-2024-9999', 'CVE-2024-11053']),
      advisory('B-none', '', undefined),
      advisory('B-imp-older', 'important', C39 - 5),
    ],
  };

  it('unites the logs after old up to new, de-duplicated, sorted by severity then date', () => {
    const changelog = aggregateChangelog(V61, 'base-v2.2.0-3.8-os', 'base-v2.2.0-3.12-os', logs);

    expect(changelog.direction).toBe('upgrade');
    expect(changelog.span).toEqual(['base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os']);
    expect(changelog.missing).toEqual([]);
    expect(ids(changelog.advisories)).toEqual(['A-crit', 'B-imp', 'B-imp-older', 'A-low', 'B-none']);
    expect(changelog.advisories[0].versionName).toBe('base-v2.2.0-3.9-os');
    expect(changelog.summary).toEqual({
      critical: 1, important: 2, moderate: 0, low: 1, none: 1, total: 5
    });
    expect(changelog.cves).toEqual(['CVE-2024-11053', 'CVE-2024-9999']);
    expect(changelog.problems).toEqual([]);
  });

  it('drops advisories dated at or before the old image', () => {
    const changelog = aggregateChangelog(V61, 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.12-os', logs);

    expect(changelog.span).toEqual(['base-v2.2.0-3.12-os']);
    expect(ids(changelog.advisories)).toEqual(['B-imp', 'B-none']);
  });

  it('reports versions without a log', () => {
    const changelog = aggregateChangelog(V61, 'base-v2.2.0-3.8-os', 'base-v2.2.0-3.12-os', { 'base-v2.2.0-3.12-os': logs['base-v2.2.0-3.12-os'], 'base-v2.2.0-3.9-os': null });

    expect(changelog.missing).toEqual(['base-v2.2.0-3.9-os']);
    expect(ids(changelog.advisories)).toEqual(['A-crit', 'B-imp', 'B-imp-older', 'B-none']);
  });

  it('flags a downgrade and still shows what lies between', () => {
    const changelog = aggregateChangelog(V61, 'base-v2.2.0-3.12-os', 'base-v2.2.0-3.8-os', logs);

    expect(changelog.direction).toBe('downgrade');
    expect(changelog.span).toEqual(['base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os']);
    expect(changelog.summary.total).toBe(5);
  });

  it('is empty for the same version, and reports unknown versions without throwing', () => {
    expect(aggregateChangelog(V61, 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.9-os', logs)).toMatchObject({
      direction: 'same', span: [], advisories: []
    });
    const unknown = aggregateChangelog(V61, 'nope', 'base-v2.2.0-3.12-os', logs);

    expect(unknown.span).toEqual([]);
    expect(unknown.problems).toEqual([{ key: 'osUpgrades.changelog.problem.unknownVersion', values: { name: 'nope' } }]);
  });

  it('skips iso versions in the span; across channels without package lists the advisories are unknown', () => {
    const all = [...V61, ...channelVersions('sl-micro-6.2-base')];
    const across = aggregateChangelog(all, 'base-v2.2.0-3.12-os', 'base-v2.3.0-6.1-os', { 'base-v2.3.0-6.1-os': [advisory('X', 'critical', C312 + 1)] });

    expect(across.span).toEqual(['base-v2.3.0-6.1-os']);
    expect(across.crossChannel).toBe(true);
    expect(across.evidence).toBe('none');
    expect(across.advisoriesUnknown).toBe(true);
    expect(across.advisories).toEqual([]);
    expect(across.problems).toEqual([]);
    expect(aggregateChangelog(all, 'base-v2.2.0-3.8-os', 'base-v2.2.0-3.12-os', {}).span).not.toContain('base-v2.2.0-3.7-iso');
  });

  it('ignores logs of versions outside the span and prototype keys', () => {
    const changelog = aggregateChangelog(V61, 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.12-os', JSON.parse('{"__proto__": [], "base-v2.2.0-3.8-os": [{"id":"X"}]}'));

    expect(changelog.advisories).toEqual([]);
    expect(changelog.missing).toEqual(['base-v2.2.0-3.12-os']);
  });

  it('handles a long synthetic channel', () => {
    const entries = syntheticChannelEntries({
      count: 60, prefix: 'base', startCreated: 1730000000, stepSeconds: 86400, displayName: 'SL Micro'
    });
    const versions = entries.map((entry) => toManagedOSVersion(entry, { channel: 'c' }));
    const synthetic: UpdateLogs = {};

    entries.forEach((entry, index) => {
      if (index % 7 !== 3) {
        const created = entry.spec.metadata.created as number;

        synthetic[entry.metadata.name] = parseUpdateLog(syntheticUpdateLog(entry.metadata.name, {
          count: 10, seed: index, after: created - 86400 * 3, before: created
        }));
      }
    });
    const changelog = aggregateChangelog(versions, 'base-v2.2.0-3.1-os', 'base-v2.2.0-3.60-os', synthetic);

    expect(changelog.span).toHaveLength(59);
    expect(changelog.missing).toEqual(entries.filter((_, index) => index % 7 === 3 && index !== 59).map((entry) => entry.metadata.name));
    expect(new Set(ids(changelog.advisories)).size).toBe(changelog.advisories.length);
    expect(changelog.advisories.every((a) => a.date === undefined || a.date > 1730000000)).toBe(true);
    expect(changelog.summary.total).toBe(changelog.advisories.length);
  });

  it('holds its rules for any logs and any input order', () => {
    const entries = syntheticChannelEntries({
      count: 12, prefix: 'base', startCreated: 1000000, stepSeconds: 1000, displayName: 'SL Micro'
    });
    const versions = entries.map((entry) => toManagedOSVersion(entry, { channel: 'c' }));
    const names = entries.map((entry) => entry.metadata.name);
    const advisoryArb = fc.record({
      id:       fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F', ''),
      severity: fc.constantFrom('critical', 'important', 'moderate', 'low', '') as fc.Arbitrary<Advisory['severity']>,
      date:     fc.option(fc.integer({ min: 995000, max: 1012000 }), { nil: undefined }),
    }).map((a) => advisory(a.id, a.severity, a.date));
    const logsArb = fc.dictionary(fc.constantFrom(...names), fc.option(fc.array(advisoryArb, { maxLength: 6 }), { nil: null }));

    fc.assert(fc.property(logsArb, fc.constantFrom(...names), fc.constantFrom(...names), fc.integer(), (logs, from, to, seed) => {
      const changelog = aggregateChangelog(versions, from, to, logs);
      const oldCreated = Math.min(...[from, to].map((name) => entries.find((e) => e.metadata.name === name)!.spec.metadata.created as number));
      const withIds = changelog.advisories.filter((a) => a.id);

      expect(aggregateChangelog(shuffled(seededRandom(seed), versions), from, to, logs)).toEqual(changelog);
      expect(new Set(withIds.map((a) => a.id)).size).toBe(withIds.length);
      expect(changelog.advisories.every((a) => a.date === undefined || a.date > oldCreated)).toBe(true);
      expect(changelog.advisories.every((a) => changelog.span.includes(a.versionName))).toBe(true);
      expect(changelog.missing.every((name) => changelog.span.includes(name) && !Array.isArray(logs[name]))).toBe(true);
      changelog.advisories.slice(1).forEach((a, i) => expect(compareAdvisories(changelog.advisories[i], a)).toBeLessThanOrEqual(0));
      expect(changelog.summary.total).toBe(changelog.advisories.length);
      expect(changelog.span.length).toBe(Math.abs(names.indexOf(from) - names.indexOf(to)));
    }));
  });
});

describe('planChangelog and aggregatePlan (rule "Changelog" in two halves: a compare plans once, aggregates once)', () => {
  it('knows the span, the direction and the problems before any log', () => {
    const plan = planChangelog(V61, 'base-v2.2.0-3.12-os', 'base-v2.2.0-3.8-os');

    expect(plan.direction).toBe('downgrade');
    expect(plan.span).toEqual(['base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os']);
    expect(plan.spanVersions.map((version) => version.name)).toEqual(plan.span);
    expect(plan.crossChannel).toBe(false);
    expect(plan.problems).toEqual([]);
    expect(planChangelog(V61, 'base-v2.2.0-3.8-os', 'nope').problems).toEqual([{ key: 'osUpgrades.changelog.problem.unknownVersion', values: { name: 'nope' } }]);
    expect(planChangelog(V61, 'base-v2.2.0-3.8-os', 'nope').span).toEqual([]);
  });

  it('one plan aggregated with any logs gives what aggregateChangelog gives, and is left as it was', () => {
    const entries = syntheticChannelEntries({
      count: 10, prefix: 'base', startCreated: 1000000, stepSeconds: 1000, displayName: 'SL Micro'
    });
    const versions = entries.map((entry) => toManagedOSVersion(entry, { channel: 'c' }));
    const names = entries.map((entry) => entry.metadata.name);
    const advisoryArb = fc.record({
      id:       fc.constantFrom('A', 'B', 'C', ''),
      severity: fc.constantFrom('critical', 'low', '') as fc.Arbitrary<Advisory['severity']>,
      date:     fc.option(fc.integer({ min: 995000, max: 1012000 }), { nil: undefined }),
    }).map((a) => advisory(a.id, a.severity, a.date));
    const logsArb = fc.dictionary(fc.constantFrom(...names), fc.option(fc.array(advisoryArb, { maxLength: 4 }), { nil: null }));

    fc.assert(fc.property(fc.array(logsArb, { minLength: 1, maxLength: 3 }), fc.constantFrom(...names, 'missing'), fc.constantFrom(...names), (logSets, from, to) => {
      const plan = planChangelog(versions, from, to);
      const before = JSON.stringify(plan);

      // As files arrive the same plan is aggregated again with more logs.
      for (const logs of logSets) {
        expect(aggregatePlan(plan, logs)).toEqual(aggregateChangelog(versions, from, to, logs));
      }
      expect(JSON.stringify(plan)).toBe(before);
    }));
  });
});
