import { withoutFinalStop } from '../text';

describe('a person\'s sentence inside a message', () => {
  it('drops the final full stop the message adds itself', () => {
    expect(withoutFinalStop('move to base-v2.2.0-3.9-os or newer.')).toBe('move to base-v2.2.0-3.9-os or newer');
    expect(withoutFinalStop('安全启动时无法启动。 ')).toBe('安全启动时无法启动');
  });

  it('keeps a sentence without one, and an ellipsis', () => {
    expect(withoutFinalStop('Breaks the network on Intel NICs')).toBe('Breaks the network on Intel NICs');
    expect(withoutFinalStop('see bsc#1230000...')).toBe('see bsc#1230000...');
  });
});
