import { mustRelist } from '../index';

describe('mustRelist', () => {
  it('re-lists a list the shell holds but no longer watches (a watch without revision would start from now)', () => {
    expect(mustRelist(true, false)).toBe(true);
  });

  it('trusts a watched list, and leaves a first load to the shell', () => {
    expect(mustRelist(true, true)).toBe(false);
    expect(mustRelist(false, false)).toBe(false);
    expect(mustRelist(false, true)).toBe(false);
  });
});
