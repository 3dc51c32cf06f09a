import { longestDiffLine, shownLayout, sideBySideWidth, SIDE_BY_SIDE_MIN_WIDTH } from '../diff-layout';

describe('shownLayout', () => {
  it('shows side by side where both halves fit, line by line below', () => {
    expect(shownLayout('side-by-side', 1040)).toBe('side-by-side');
    expect(shownLayout('side-by-side', SIDE_BY_SIDE_MIN_WIDTH)).toBe('side-by-side');
    expect(shownLayout('side-by-side', SIDE_BY_SIDE_MIN_WIDTH - 1)).toBe('line-by-line');
    expect(shownLayout('side-by-side', 656)).toBe('line-by-line');
  });

  it('keeps line by line at any width', () => {
    expect(shownLayout('line-by-line', 400)).toBe('line-by-line');
    expect(shownLayout('line-by-line', 2000)).toBe('line-by-line');
  });

  it('shows the chosen layout until the width is known (not measured, or a hidden element)', () => {
    expect(shownLayout('side-by-side', undefined)).toBe('side-by-side');
    expect(shownLayout('side-by-side', 0)).toBe('side-by-side');
  });
});

describe('side by side for long package lines', () => {
  const unified = [
    '--- a/base-v2.2.0-3.8-os.packages',
    '+++ b/base-v2.2.0-3.12-os.packages',
    '@@ -1,2 +1,2 @@',
    '-libopenssl-3-fips-provider.x86_64  3.1.4-150600.5.7.1',
    '+libopenssl-3-fips-provider.x86_64  3.1.4-150600.5.10.1',
    ' bash.x86_64  5.2.15-150600.1.1',
    ' systemd-default-settings-branding-openSUSE.noarch  0.7-slfo.1.1_1.2',
  ].join('\n');

  it('measures the longest changed package line, not the file headers nor unchanged packages', () => {
    expect(longestDiffLine(unified)).toBe('+libopenssl-3-fips-provider.x86_64  3.1.4-150600.5.10.1'.length);
    expect(longestDiffLine('')).toBe(0);
  });

  it('needs more width the longer the lines, never less than the minimum', () => {
    expect(sideBySideWidth(10)).toBe(SIDE_BY_SIDE_MIN_WIDTH);
    expect(sideBySideWidth(100)).toBeGreaterThan(sideBySideWidth(60));
  });

  it('shows line by line in a panel too narrow for its longest lines, side by side where they fit', () => {
    const longest = 90;

    expect(shownLayout('side-by-side', 1000, longest)).toBe('line-by-line');
    expect(shownLayout('side-by-side', sideBySideWidth(longest), longest)).toBe('side-by-side');
  });
});
