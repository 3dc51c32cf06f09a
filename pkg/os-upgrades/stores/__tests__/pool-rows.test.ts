import { reactive } from 'vue';
import { forgetGonePools, keptPoolRows, poolRows } from '../pool-rows';
import {
  NEW, NOW, OLD, poolObject, VERSIONS
} from '../../domain/__tests__/pool-test-data';

function pool(name: string, resourceVersion: string) {
  return reactive(poolObject({
    name, resourceVersion, pin: OLD.name, selector: '{"channel":"stable"}'
  })) as { metadata: Record<string, string>; spec: Record<string, unknown> };
}

describe('the pools list rows kept between visits', () => {
  it('gives the same rows for the same pools, versions and minute, and the live pool as object', () => {
    const pools = [pool('a', '1'), pool('b', '1')];
    const first = poolRows(pools, VERSIONS, NOW);
    // Another visit: a new array of the same version records, the clock 30 s on in the same minute (NOW is 20 s past one).
    const again = poolRows(pools, [...VERSIONS], NOW + 30);

    expect(again[0]).toBe(first[0]);
    expect(again[1]).toBe(first[1]);
    expect(again[0].object).toBe(pools[0]);
    expect(first[0].candidate?.name).toBe(NEW.name);
  });

  it('works a pool out again once it is written, and every pool when the minute or a version changes', () => {
    const pools = [pool('c', '1'), pool('d', '1')];
    const first = poolRows(pools, VERSIONS, NOW);

    pools[0].metadata.resourceVersion = '2';
    pools[0].spec.managedOSVersionName = NEW.name;
    const written = poolRows(pools, VERSIONS, NOW);

    expect(written[0]).not.toBe(first[0]);
    expect(written[0].upgradeAvailable).toBe(false);
    expect(written[1]).toBe(first[1]);

    expect(poolRows(pools, VERSIONS, NOW + 60)[1]).not.toBe(first[1]);
    expect(poolRows(pools, [OLD], NOW + 60)[1].candidate?.name).toBe(OLD.name);
  });

  it('works a pool out again when a write of the extension is pending for it', () => {
    const pools = [pool('e', '1')];
    const first = poolRows(pools, VERSIONS, NOW);
    const pending = poolRows(pools, VERSIONS, NOW, { [`${ pools[0].metadata.namespace }/e`]: { pin: NEW.name, conditions: '[]' } as never });

    expect(pending[0]).not.toBe(first[0]);
  });
});

describe('the pools list rows when the page is read again', () => {
  it('keeps a row for a new object of the same pool at the same resourceVersion, with the new object', () => {
    const first = poolRows([pool('f', '1')], VERSIONS, NOW);
    const reread = pool('f', '1');
    const again = poolRows([reread], VERSIONS, NOW);

    expect(again[0].object).toBe(reread);
    expect(again[0].candidate).toBe(first[0].candidate);
    expect(again[0].targets).toBe(first[0].targets);
  });
});

describe('the pools list rows of pools that are gone', () => {
  it('forgets the rows of the pools no longer there, and keeps the others', () => {
    const stays = pool('g', '1');
    const goes = pool('h', '1');
    const first = poolRows([stays, goes], VERSIONS, NOW);

    forgetGonePools([stays]);

    expect(keptPoolRows()).toBe(1);
    expect(poolRows([stays], VERSIONS, NOW)[0]).toBe(first[0]);
    // Created again under the same name: worked out anew.
    expect(poolRows([pool('h', '1')], VERSIONS, NOW)[0]).not.toBe(first[1]);
  });
});
