import fc from 'fast-check';
import { wrapParts } from '../line-breaks';

describe('wrapParts', () => {
  it('cuts a URL after its slashes and query separators only', () => {
    expect(wrapParts('http://localhost:8990/__emulator/channel-files/sl-micro-6.1-base.json')).toEqual([
      'http:/', '/', 'localhost:8990/', '__emulator/', 'channel-files/', 'sl-micro-6.1-base.json'
    ]);
    expect(wrapParts('https://h/x?a=1&b=2')).toEqual(['https:/', '/', 'h/', 'x?', 'a=', '1&', 'b=', '2']);
  });

  it('keeps a text without separators whole, and nothing for an empty text', () => {
    expect(wrapParts('registry.suse.com:5000')).toEqual(['registry.suse.com:5000']);
    expect(wrapParts('')).toEqual([]);
  });

  it('loses and reorders nothing: the parts join back to the text', () => {
    fc.assert(fc.property(fc.string(), (text) => {
      const parts = wrapParts(text);

      expect(parts.join('')).toBe(text);
      parts.slice(0, -1).forEach((part) => expect(part).toMatch(/[/?&=]$/));
    }));
  });
});
