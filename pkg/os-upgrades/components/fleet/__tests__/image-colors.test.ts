import fc from 'fast-check';
import { IMAGE_PALETTE, imageColors } from '../image-colors';

describe('imageColors', () => {
  it('gives 3.9-os and 6.1-os, which shared a colour, different colours', () => {
    const colors = imageColors(['base-v2.2.0-6.1-os', 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.12-os']);

    expect(new Set(Object.values(colors)).size).toBe(3);
    expect(colors['base-v2.2.0-3.9-os']).not.toBe(colors['base-v2.2.0-6.1-os']);
  });

  it('keeps an image\'s colour wherever it is named on the page, and leaves the empty name out', () => {
    const colors = imageColors(['b', 'a', 'b', '', 'a']);

    expect(Object.keys(colors).sort()).toEqual(['a', 'b']);
  });

  it('gives every image its own colour up to the palette\'s size, and neighbours differ beyond it', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.tuple(fc.nat(20), fc.nat(20)).map(([a, b]) => `base-v2.2.0-${ a }.${ b }-os`), { maxLength: 30 }), (names) => {
      const colors = imageColors(names);
      const inOrder = Object.keys(colors).sort(new Intl.Collator('en', { numeric: true }).compare).map((name) => colors[name]);

      if (names.length <= IMAGE_PALETTE.length) {
        expect(new Set(inOrder).size).toBe(names.length);
      }
      inOrder.forEach((color, i) => i > 0 && expect(color).not.toBe(inOrder[i - 1]));
    }));
  });
});
