// One store id style (docs/architecture.md, "Conventions"): `osUpgrades/<file name in camelCase>`,
// so the id a devtools panel or an error shows names the file that defines the store.
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

const STORES = join(__dirname, '..');

const camelCase = (fileName: string) => fileName.replace(/\.ts$/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

describe('store ids', () => {
  it('each store is named osUpgrades/<its file name>', () => {
    const found = readdirSync(STORES).filter((name) => name.endsWith('.ts')).flatMap((name) => {
      const ids = [...readFileSync(join(STORES, name), 'utf8').matchAll(/defineStore\('([^']+)'/g)].map((match) => match[1]);

      return ids.map((id) => ({ file: name, id }));
    });

    expect(found.length).toBeGreaterThan(10);
    expect(found.filter(({ file, id }) => id !== `osUpgrades/${ camelCase(file) }`)).toEqual([]);
  });
});
