import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import jsyaml from 'js-yaml';

const PKG = join(__dirname, '../../..');
const english = (jsyaml as unknown as { load(text: string): unknown }).load(readFileSync(join(PKG, 'l10n/en-us.yaml'), 'utf8'));

function lookUp(key: string): unknown {
  return key.split('.').reduce((node: unknown, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), english);
}

function has(key: string): boolean {
  const value = lookUp(key);

  return typeof value === 'string' && value.trim() !== '';
}

/** A key, or a prefix the code completes (`osUpgrades.pools.target` + `.clusterName`). */
function hasKeyOrPrefix(key: string): boolean {
  return has(key) || (typeof lookUp(key) === 'object' && lookUp(key) !== null);
}

/** Every `refuse('x'`, `error(field, 'x'`, `reason('x'` and `${ REASON }.x` constant the domain's selector and pool rules can emit. */
function domainKeys(): string[] {
  const patterns: [RegExp, string][] = [
    [/refuse\('(\w+)'/g, 'osUpgrades.pool.refusal'],
    [/\berror\(\s*[\w']*\s*,\s*'(\w+)'/g, 'osUpgrades.selector.error'],
    [/\breason\('(\w+)'/g, 'osUpgrades.selector.reason'],
    [/`\$\{ REASON \}\.(\w+)`/g, 'osUpgrades.selector.reason'],
  ];
  const keys = new Set<string>();

  for (const file of readdirSync(join(PKG, 'domain')).filter((f) => ['pool-write.ts', 'selector.ts', 'pool.ts'].includes(f))) {
    const source = readFileSync(join(PKG, 'domain', file), 'utf8');

    for (const [pattern, prefix] of patterns) {
      for (const match of source.matchAll(pattern)) {
        keys.add(`${ prefix }.${ match[1] }`);
      }
    }
  }

  return [...keys].sort();
}

/** The keys of the fleet rules (withdrawals, history, promotion): each file's helper and its prefix. */
function fleetKeys(): string[] {
  const files: [string, RegExp, string][] = [
    ['withdrawal.ts', /refuse\('(\w+)'/g, 'osUpgrades.withdrawal.refusal'],
    ['withdrawal.ts', /warning\('(\w+)'/g, 'osUpgrades.withdrawal.warning'],
    ['history.ts', /warning\('(\w+)'/g, 'osUpgrades.history.warning'],
    ['promotion.ts', /message\('(\w+)'/g, 'osUpgrades.promotion.missing'],
  ];
  const keys = new Set<string>(['osUpgrades.promotion.offered']);

  for (const [file, pattern, prefix] of files) {
    for (const match of readFileSync(join(PKG, 'domain', file), 'utf8').matchAll(pattern)) {
      keys.add(`${ prefix }.${ match[1] }`);
    }
  }

  return [...keys].sort();
}

/** Every literal `osUpgrades.…` key in the pools pages and their components. */
function keysInPoolsUi(): string[] {
  const folders = ['components/pool', 'components/selector', 'components/approve'];
  const files = [
    ...folders.flatMap((folder) => readdirSync(join(PKG, folder)).filter((f) => /\.(vue|ts)$/.test(f)).map((f) => join(PKG, folder, f))),
    join(PKG, 'pages/pools.vue'),
    join(PKG, 'pages/pool-edit.vue'),
  ];
  const keys = new Set<string>();

  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/'(osUpgrades\.[\w.]+\w)'/g)) {
      keys.add(match[1]);
    }
  }

  return [...keys].sort();
}

describe('l10n of the selector and pool rules', () => {
  it('finds the keys the domain emits', () => {
    const keys = domainKeys();

    expect(keys).toContain('osUpgrades.pool.refusal.selectionChanged');
    expect(keys).toContain('osUpgrades.selector.error.badVersionRange');
    expect(keys).toContain('osUpgrades.selector.reason.tooYoung');
  });

  it('has an English text for every key the domain can emit', () => {
    expect(domainKeys().filter((key) => !has(key))).toEqual([]);
  });

  it('has an English text for every key the fleet rules emit', () => {
    const keys = fleetKeys();

    expect(keys).toContain('osUpgrades.promotion.missing.soaking');
    expect(keys).toContain('osUpgrades.withdrawal.refusal.alreadyWithdrawn');
    expect(keys.filter((key) => !has(key))).toEqual([]);
  });

  it('has an English text for every key the pools pages use', () => {
    const keys = keysInPoolsUi();

    expect(keys).toContain('osUpgrades.approve.confirm');
    expect(keys.filter((key) => !hasKeyOrPrefix(key))).toEqual([]);
  });
});
