/** @jest-environment node */
import { DEFAULT_FIXTURE_DIRS, loadFixtureDirs, parseSeedText } from '../../emulator/data/fixtures';
import { matchesLabels, parseLabelSelector, selectorFromObject } from '../../emulator/kube/labels';
import { parseOptions } from '../../emulator/core/options';
import { scaleChannel } from '../../emulator/data/scale-channel';
import { filterPredicate, nameLookup, parsePath, sortObjects } from '../../emulator/steve/steve-query';
import { listSummary } from '../../emulator/steve/list-summary';
import { parseRancherVersion } from '../../emulator/rancher/rancher-version';
import type { KubeObject } from '../../emulator/kube/store';

describe('label selectors', () => {
  it('parses and matches the string form', () => {
    const labels = { app: 'os', tier: 'edge' };

    expect(matchesLabels(parseLabelSelector('app=os,tier!=core'), labels)).toBe(true);
    expect(matchesLabels(parseLabelSelector('app in (os, iso),!missing'), labels)).toBe(true);
    expect(matchesLabels(parseLabelSelector('tier notin (edge)'), labels)).toBe(false);
    expect(matchesLabels(parseLabelSelector('missing'), labels)).toBe(false);
    expect(() => parseLabelSelector('a=(b')).toThrow();
  });

  it('matches the object form', () => {
    expect(matchesLabels(selectorFromObject({ matchLabels: { a: '1' }, matchExpressions: [{ key: 'b', operator: 'Exists' }] }), { a: '1', b: '' })).toBe(true);
    expect(matchesLabels(selectorFromObject({}), {})).toBe(true);
  });
});

describe('Steve list queries', () => {
  const objects = [
    {
      id:       'b',
      metadata: {
        name: 'b', labels: { 'provider.cattle.io': 'k3s' }, fields: ['b', 2]
      },
      spec: { n: 10 }
    },
    {
      id:       'a',
      metadata: {
        name: 'a', labels: {}, fields: ['a', 1]
      },
      spec: { n: 9 }
    },
  ];
  const ids = (filter: string) => objects.filter(filterPredicate(new URLSearchParams(filter))).map((o) => o.id);

  it('parses bracketed paths', () => {
    expect(parsePath('metadata.labels[provider.cattle.io]')).toEqual(['metadata', 'labels', 'provider.cattle.io']);
    expect(parsePath('metadata.fields[2]')).toEqual(['metadata', 'fields', '2']);
  });

  it('filters with =, !=, ~, IN, NOTIN, exists and comparisons', () => {
    expect(ids('filter=metadata.labels[provider.cattle.io]!=harvester')).toEqual(['b', 'a']);
    expect(ids('filter=metadata.labels[provider.cattle.io]=k3s')).toEqual(['b']);
    expect(ids('filter=metadata.name~A')).toEqual(['a']);
    expect(ids('filter=id IN (a,c)')).toEqual(['a']);
    expect(ids('filter=id NOTIN (a)')).toEqual(['b']);
    expect(ids('filter=!metadata.labels[provider.cattle.io]')).toEqual(['a']);
    expect(ids('filter=spec.n > 9')).toEqual(['b']);
    expect(ids('filter=metadata.name=a,metadata.name=b&filter=spec.n<10')).toEqual(['a']);
  });

  it('sorts by several fields, numerically', () => {
    expect(sortObjects(objects, 'metadata.fields[1]').map((o) => o.id)).toEqual(['a', 'b']);
    expect(sortObjects(objects, '-spec.n').map((o) => o.id)).toEqual(['b', 'a']);
  });
});

describe('fixtures and options', () => {
  it('loads the default folders: real channels, synthetic changelogs, hostile channel and seed', () => {
    const data = loadFixtureDirs(DEFAULT_FIXTURE_DIRS);

    expect([...data.channels.keys()].sort()).toEqual(['hostile', 'sl-micro-6.1-base', 'sl-micro-6.2-base', 'unstable']);
    expect(data.packages.has('base-v2.2.0-3.12-os')).toBe(true);
    expect(data.changelogs.has('base-v2.2.0-3.8-os')).toBe(true);
    // One real container version has no update log, on purpose.
    expect(data.changelogs.has('base-v2.2.0-3.9-os')).toBe(false);
    expect(data.seed.filter((o) => o.kind === 'ManagedOSImage').length).toBeGreaterThanOrEqual(2);
  });

  it('parses seed files: YAML documents, JSON arrays and Lists', () => {
    expect(parseSeedText('a: 1\n---\nb: 2\n')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(parseSeedText('[{"a":1}]')).toEqual([{ a: 1 }]);
    expect(parseSeedText('{"kind":"List","items":[{"a":1}]}')).toEqual([{ a: 1 }]);
  });

  it('generates the scale channel with packages and logs, some logs missing', () => {
    const channel = scaleChannel(500);

    expect(channel.entries).toHaveLength(500);
    expect(channel.packages(channel.entries[0].metadata.name)).toContain('|');
    expect(JSON.parse(channel.changelog('scale-v2.2.0-7.1-os') ?? '')).toEqual(expect.any(Array));
    expect(channel.changelog('scale-v2.2.0-7.50-os')).toBeUndefined();
    expect(channel.packages('not-in-the-channel')).toBeUndefined();
  });

  it('reads options from flags over environment variables', () => {
    const options = parseOptions(['--port', '9000', '--fixtures=a,b', '--log-errors'], { EMULATOR_PORT: '1', EMULATOR_SCALE_VERSIONS: '0' }, '/repo');

    expect(options).toMatchObject({
      port: 9000, fixtureDirs: ['/repo/a', '/repo/b'], scaleVersions: 0, logErrors: true
    });
    expect(() => parseOptions(['--nope'], {})).toThrow(/unknown option/);
  });

  it('keeps the control endpoints unless --no-control or EMULATOR_NO_CONTROL=1 asks for real Rancher mode', () => {
    expect(parseOptions([], {}).control).toBe(true);
    expect(parseOptions(['--no-control'], {}).control).toBe(false);
    expect(parseOptions([], { EMULATOR_NO_CONTROL: '1' }).control).toBe(false);
    expect(parseOptions(['--no-control=0'], { EMULATOR_NO_CONTROL: '1' }).control).toBe(true);
  });
});

describe('Steve list summaries', () => {
  const CHANNEL = 'elemental.cattle.io/channel';
  const version = (name: string, namespace: string, channel?: string) => ({
    metadata: {
      name, namespace, labels: channel === undefined ? {} : { [CHANNEL]: channel }
    }
  }) as unknown as KubeObject;
  const matched = [version('a', 'fleet-default', 'base'), version('b', 'fleet-default', 'base'), version('c', 'fleet-local', 'base'), version('d', 'fleet-default', 'kernel'), version('e', 'fleet-default', ''), version('f', 'fleet-default')];
  const query = (text: string) => new URLSearchParams(text);

  it('counts each label value over what the filters matched, leaving out objects without it', () => {
    const answer = listSummary(query(`summary=metadata.labels[${ CHANNEL }]`), matched, 'summary');

    expect(answer).toEqual({ summaryOnly: false, summary: [{ property: `metadata.labels[${ CHANNEL }]`, counts: { base: { total: 3 }, kernel: { total: 1 } } }] });
  });

  it('breaks counts down by namespace and answers no items only where this Steve knows how (v0.9.11 and newer)', () => {
    const text = `summary=metadata.labels[${ CHANNEL }]&summarynamespaced=true&summaryonly`;

    expect(listSummary(query(text), matched, 'summaryOnly')?.summary[0].counts).toEqual({ base: { total: 3, namespace: { 'fleet-default': 2, 'fleet-local': 1 } }, kernel: { total: 1, namespace: { 'fleet-default': 1 } } });
    expect(listSummary(query(text), matched, 'summaryOnly')?.summaryOnly).toBe(true);
    expect(listSummary(query(text), matched, 'summary')).toEqual({ summaryOnly: false, summary: [{ property: `metadata.labels[${ CHANNEL }]`, counts: { base: { total: 3 }, kernel: { total: 1 } } }] });
    expect(listSummary(query(text), matched, 'none')).toBeUndefined();
  });

  it('refuses what Steve refuses', () => {
    expect(() => listSummary(query('summary=a&summary=b'), matched, 'summary')).toThrow('at most 1 is allowed');
    expect(() => listSummary(query('summaryonly=true'), matched, 'summaryOnly')).toThrow('no summary fields');
    expect(() => listSummary(query('summary=a,'), matched, 'summary')).toThrow('empty summary parameter');
  });

  it('comes with the Steve each Rancher minor pins', () => {
    expect(['v2.12.3', 'v2.13.0', 'v2.14.1', 'v2.15.0'].map((version) => parseRancherVersion(version).steveSummary)).toEqual(['none', 'none', 'summary', 'summaryOnly']);
  });
});

describe('Steve lists by name', () => {
  it('looks up the names one filter of only metadata.name terms keeps, in the namespace a one-term filter names', () => {
    expect(nameLookup(new URLSearchParams('filter=metadata.namespace="fleet-default"&filter=metadata.name="a",metadata.name=b,metadata.name="a"'))).toEqual({ names: ['a', 'b'], namespace: 'fleet-default' });
    expect(nameLookup(new URLSearchParams('filter=metadata.name=a'))).toEqual({ names: ['a'], namespace: undefined });
    // A name OR-ed with anything else, or no name at all: every object is read and the filter decides.
    expect(nameLookup(new URLSearchParams('filter=metadata.name=a,spec.n=1'))).toBeUndefined();
    expect(nameLookup(new URLSearchParams('filter=metadata.name~a'))).toBeUndefined();
    expect(nameLookup(new URLSearchParams('filter=metadata.namespace=x'))).toBeUndefined();
  });
});
