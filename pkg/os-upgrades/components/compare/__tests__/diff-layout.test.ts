import { shownLayout, SIDE_BY_SIDE_MIN_WIDTH } from '../diff-layout';

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
