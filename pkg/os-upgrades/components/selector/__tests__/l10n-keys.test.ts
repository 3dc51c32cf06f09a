import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import jsyaml from 'js-yaml';

const PKG = join(__dirname, '../../..');
const english = (jsyaml as unknown as { load(text: string): unknown }).load(readFileSync(join(PKG, 'l10n/en-us.yaml'), 'utf8'));

function has(key: string): boolean {
  const value = key.split('.').reduce((node: unknown, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), english);

  return typeof value === 'string' && value.trim() !== '';
}

/** Every `refuse('x'`, `error(field, 'x'` and `reason('x'` the domain's selector and pool rules can emit. */
function domainKeys(): string[] {
  const patterns: [RegExp, string][] = [
    [/refuse\('(\w+)'/g, 'osUpgrades.pool.refusal'],
    [/\berror\(\s*[\w']*\s*,\s*'(\w+)'/g, 'osUpgrades.selector.error'],
    [/\breason\('(\w+)'/g, 'osUpgrades.selector.reason'],
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
});
