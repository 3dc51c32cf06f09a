import fc from 'fast-check';
import {
  fileReadCounts, ImageHit, isExactHit, poolChannels, rankImageHits, searchImages, SELECTOR_ANNOTATION
} from '../index';

const v = (name: string, channel: string, created: number, namespace = 'fleet-default') => ({
  name, namespace, channel, type: 'container', version: name, created, inSync: true, image: `registry.example/os:${ name }`
});
const pkg = (name: string, version = '6.4.0', release = '1.1') => ({
  name, epoch: 0, version, release, arch: 'x86_64', disturl: '', license: ''
});

describe('rankImageHits', () => {
  // 'aaa-generated' sorts before 'sl-micro': by channel alone its images would come first.
  const generated = Array.from({ length: 60 }, (_, i) => v(`gen-${ i }`, 'aaa-generated', i));
  const real = [v('base-v2.2.0-3.9-os', 'sl-micro-6.1-base', 100), v('base-v2.2.0-3.12-os', 'sl-micro-6.1-base', 200)];
  const packages = Object.fromEntries([...generated, ...real].map((version) => [version.name, [pkg('kernel-default')]]));

  it('puts the images of the channels the pools use before the others among equally exact hits', () => {
    const hits = searchImages([...generated, ...real], 'kernel-default', { packages });
    const ranked = rankImageHits(hits, 'kernel-default', [{ namespace: 'fleet-default', channel: 'sl-micro-6.1-base' }]);

    expect(hits.slice(0, 2).map((hit) => hit.version.channel)).toEqual(['aaa-generated', 'aaa-generated']);
    expect(ranked.slice(0, 2).map((hit) => hit.version.name)).toEqual(['base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os']);
    expect(ranked).toHaveLength(62);
  });

  it('puts exact hits (package, CVE, the whole version) before hits on a part of a name', () => {
    const versions = [v('kernel-default-test', 'aaa', 1), v('plain', 'zzz', 2)];
    const hits = searchImages(versions, 'kernel-default', { packages: { plain: [pkg('kernel-default')] } });

    expect(hits.map((hit) => hit.version.name)).toEqual(['kernel-default-test', 'plain']);
    expect(rankImageHits(hits, 'kernel-default', []).map((hit) => hit.version.name)).toEqual(['plain', 'kernel-default-test']);
    // An exact hit elsewhere still comes before a partial one in a preferred channel.
    expect(rankImageHits(hits, 'kernel-default', [{ namespace: 'fleet-default', channel: 'aaa' }]).map((hit) => hit.version.name)).toEqual(['plain', 'kernel-default-test']);
    const byVersion = searchImages([v('v1.2', 'aaa', 1), v('v1.2.3', 'zzz', 2)], 'v1.2.3', {});

    expect(isExactHit(byVersion[0], 'V1.2.3 ')).toBe(true);
  });

  it('keeps every hit, once, and the order within a rank', () => {
    const hit = (name: string, channel: string, exact: boolean): ImageHit => ({ version: v(name, channel, 1) as ImageHit['version'], matches: [{ field: 'name', text: exact ? 'q' : `${ name }q` }] });

    fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.boolean()), { maxLength: 30 }), (specs) => {
      const hits = specs.map(([channel, exact], i) => hit(`i${ i }`, channel, exact));
      const ranked = rankImageHits(hits, 'q', [{ namespace: 'fleet-default', channel: 'b' }]);

      expect([...ranked].sort((a, b) => hits.indexOf(a) - hits.indexOf(b))).toEqual(hits);
      const ranks = ranked.map((h) => (isExactHit(h, 'q') ? 0 : 2) + (h.version.channel === 'b' ? 0 : 1));

      ranks.forEach((rank, i) => {
        if (i > 0) {
          expect(rank).toBeGreaterThanOrEqual(ranks[i - 1]);
          if (rank === ranks[i - 1]) {
            expect(hits.indexOf(ranked[i])).toBeGreaterThan(hits.indexOf(ranked[i - 1]));
          }
        }
      });
    }));
  });
});

describe('poolChannels', () => {
  it('takes the selector channel and the channel of the pinned image of each pool', () => {
    const versions = [v('a1', 'ch-a', 1), v('b1', 'ch-b', 1), v('x1', 'ch-x', 1, 'other-ns')];
    const pools = [
      { metadata: { name: 'p1', namespace: 'fleet-default' }, spec: { managedOSVersionName: 'a1' } },
      {
        metadata: {
          name: 'p2', namespace: 'fleet-default', annotations: { [SELECTOR_ANNOTATION]: '{"channel":"ch-c"}' }
        },
        spec: { managedOSVersionName: 'b1' }
      },
      // A pin of another namespace's image is not this pool's.
      { metadata: { name: 'p3', namespace: 'fleet-default' }, spec: { managedOSVersionName: 'x1' } },
      { metadata: { name: 'p4', namespace: 'fleet-default' }, spec: { managedOSVersionName: 'a1' } },
    ];

    expect(poolChannels(pools, versions)).toEqual([
      { namespace: 'fleet-default', channel: 'ch-a' }, { namespace: 'fleet-default', channel: 'ch-b' }, { namespace: 'fleet-default', channel: 'ch-c' }
    ]);
    expect(poolChannels([], versions)).toEqual([]);
  });
});

describe('fileReadCounts', () => {
  it('counts read, missing and unreadable files; loading ones count in none', () => {
    expect(fileReadCounts([{ state: 'ok' }, { state: 'missing' }, { state: 'error' }, { state: 'noService' }, { state: 'loading' }, undefined])).toEqual({
      total: 6, read: 1, missing: 1, unreadable: 2
    });
  });
});
