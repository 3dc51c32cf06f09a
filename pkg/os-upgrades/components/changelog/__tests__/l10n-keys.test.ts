import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';
import jsyaml from 'js-yaml';

const PKG = join(__dirname, '../../..');
const english = (jsyaml as unknown as { load(text: string): unknown }).load(readFileSync(join(PKG, 'l10n/en-us.yaml'), 'utf8'));
const FOLDERS = ['components/channel', 'components/compare', 'components/changelog', 'components/common', 'components/fleet', 'pages'];
const PAGES = ['channels.vue', 'channel.vue', 'compare.vue', 'fleet.vue'];

function has(key: string): boolean {
  const value = key.split('.').reduce((node: unknown, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), english);

  return typeof value === 'string' && value.trim() !== '';
}

function sources(): string[] {
  const files: string[] = [];

  for (const folder of FOLDERS) {
    for (const name of readdirSync(join(PKG, folder))) {
      const path = join(PKG, folder, name);

      if (statSync(path).isFile() && /\.(vue|ts)$/.test(name) && (folder !== 'pages' || PAGES.includes(name))) {
        files.push(readFileSync(path, 'utf8'));
      }
    }
  }

  return files;
}

const DYNAMIC = [
  ...['critical', 'important', 'moderate', 'low', 'none'].map((level) => `osUpgrades.common.severity.${ level }`),
  ...['synced', 'failed', 'unknown'].map((state) => `osUpgrades.channels.sync.${ state }`),
  ...['upgraded', 'downgraded', 'added', 'removed', 'unchanged'].map((kind) => `osUpgrades.compare.packages.${ kind }`),
  ...['log', 'packages'].map((file) => `osUpgrades.changelog.file.${ file }`),
  ...['loading', 'missing', 'error'].map((state) => `osUpgrades.channel.timeline.${ state }Label`),
  ...['untrustedOrigin', 'notHttp', 'invalidUrl', 'cancelled', 'timeout', 'tooLarge', 'status', 'network'].map((reason) => `osUpgrades.changelog.fetchError.${ reason }`),
  ...['name', 'namespace', 'type', 'source', 'enabled', 'syncInterval', 'lastSync', 'syncState', 'containers', 'isos', 'newest'].map((column) => `osUpgrades.channels.${ column }`),
];

/** The reasons the domain's parsers and aggregation can give (read from its source). */
function domainKeys(): string[] {
  const read = (file: string) => readFileSync(join(PKG, 'domain', file), 'utf8');
  const keys: string[] = [];

  for (const match of read('updatelog.ts').matchAll(/new ChangelogFormatError\('(\w+)'/g)) {
    keys.push(`osUpgrades.changelog.error.${ match[1] }`);
  }
  for (const match of read('packages.ts').matchAll(/new PackageListFormatError\('(\w+)'/g)) {
    keys.push(`osUpgrades.changelog.packageListError.${ match[1] }`);
  }
  for (const match of read('changelog.ts').matchAll(/problem\('(\w+)'/g)) {
    keys.push(`osUpgrades.changelog.problem.${ match[1] }`);
  }

  return keys;
}

describe('l10n of the channel, changelog and compare pages', () => {
  it('has an English text for every literal key they use', () => {
    const keys = new Set<string>();

    for (const source of sources()) {
      for (const match of source.matchAll(/\bt\(\s*'(osUpgrades\.[\w.]+)'/g)) {
        keys.add(match[1]);
      }
    }
    expect(keys.size).toBeGreaterThan(50);
    expect([...keys].filter((key) => !has(key))).toEqual([]);
  });

  it('has an English text for every key built at run time and every domain reason', () => {
    const keys = [...DYNAMIC, ...domainKeys()];

    expect(domainKeys()).toContain('osUpgrades.changelog.error.invalidJson');
    expect(keys.filter((key) => !has(key))).toEqual([]);
  });
});
