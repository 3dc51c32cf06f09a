/** @jest-environment node */
import { safeConcatName } from '../../emulator/kube/wrangler-name';

describe('wrangler\'s SafeConcatName (pkg/name/name.go)', () => {
  it('keeps a name under 64 characters', () => {
    expect(safeConcatName('mos', 'a'.repeat(59))).toBe(`mos-${ 'a'.repeat(59) }`);
  });

  it('cuts to 57 characters and 5 hex digits when the 57th is a letter or digit', () => {
    const name = safeConcatName('os-upgrader', 'x'.repeat(60));

    expect(name).toMatch(/^os-upgrader-x{45}-[0-9a-f]{5}$/);
    expect(name).toHaveLength(63);
  });

  it('cuts to 56 characters and 6 hex digits when the 57th is not', () => {
    const pool = `${ 'x'.repeat(44) }-${ 'y'.repeat(20) }`;
    const name = safeConcatName('os-upgrader', pool);

    // 'os-upgrader-' is 12 characters: the 57th is the '-' after the 44 x.
    expect(name).toMatch(/^os-upgrader-x{44}-[0-9a-f]{6}$/);
    expect(name).toHaveLength(63);
  });
});
