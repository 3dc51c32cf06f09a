import { saferDump } from '@shell/utils/create-yaml';
import { yamlText } from '../yaml-text';

describe('yamlText', () => {
  it.each([
    [{ spec: { managedOSVersionName: 'v1', clusterTargets: [{ clusterName: 'a' }] } }],
    [{ metadata: { annotations: { 'os-upgrades.cattle.io/image-selector': '{"channel":"c"}' } } }],
    [{}],
    [undefined],
  ])('writes what the shell\'s saferDump writes (%j)', (value) => {
    expect(yamlText(value)).toBe(saferDump(value));
  });

  it('is empty for an empty object', () => {
    expect(yamlText({})).toBe('');
  });
});
