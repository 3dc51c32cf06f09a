import fc from 'fast-check';
import { parseSelector, selectorChips } from '..';

const chipsOf = (text: string) => {
  const { selector } = parseSelector(text);

  if (!selector) {
    throw new Error(`not a selector: ${ text }`);
  }

  return selectorChips(selector).map((chip) => ({ key: chip.key.replace('osUpgrades.selector.chip.', ''), values: chip.values }));
};

describe('a selector in words', () => {
  it('reads "sl-micro-6.1-base · ~2.2 · x86_64 · soak 24 h" in that order', () => {
    expect(chipsOf('{"minAgeHours":24,"platform":"linux/x86_64","version":"~2.2","channel":"sl-micro-6.1-base"}')).toEqual([
      { key: 'channel', values: { channel: 'sl-micro-6.1-base' } },
      { key: 'version', values: { range: '~2.2' } },
      { key: 'platform', values: { platform: 'x86_64' } },
      { key: 'soak', values: { hours: 24 } },
    ]);
  });

  it('says "any channel" when the selector names none, and every other field it sets', () => {
    expect(chipsOf('{"displayName":"SL Micro","platform":"windows/amd64","includeOutOfSync":true}')).toEqual([
      { key: 'anyChannel', values: undefined },
      { key: 'displayName', values: { name: 'SL Micro' } },
      { key: 'platform', values: { platform: 'windows/amd64' } },
      { key: 'outOfSync', values: undefined },
    ]);
  });

  it('leaves out a soak time of 0 and out-of-sync false: they change nothing', () => {
    expect(chipsOf('{"channel":"c","minAgeHours":0,"includeOutOfSync":false}')).toEqual([{ key: 'channel', values: { channel: 'c' } }]);
  });

  it('always starts with the channel and has one chip per field at most (property)', () => {
    const selector = fc.record({
      channel:          fc.option(fc.string({ minLength: 1, maxLength: 10 }), { nil: undefined }),
      version:          fc.option(fc.constantFrom('~2.2', '>=1 <3', '*'), { nil: undefined }),
      platform:         fc.option(fc.constantFrom('linux/x86_64', 'linux/aarch64'), { nil: undefined }),
      minAgeHours:      fc.option(fc.nat(1000), { nil: undefined }),
      includeOutOfSync: fc.option(fc.boolean(), { nil: undefined }),
    });

    fc.assert(fc.property(selector, (input) => {
      const chips = selectorChips(input);
      const fields = chips.map((chip) => chip.field);

      expect(fields[0]).toBe('channel');
      expect(new Set(fields).size).toBe(fields.length);
      expect(chips.every((chip) => chip.key.startsWith('osUpgrades.selector.chip.'))).toBe(true);
    }));
  });
});
