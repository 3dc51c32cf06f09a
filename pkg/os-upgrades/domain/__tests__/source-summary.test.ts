import fc from 'fast-check';
import { FileAnswerState, summarizeSourceAnswers } from '../index';

describe('summarizeSourceAnswers', () => {
  it('a source that answered only errors is unreachable, not "no changelog"', () => {
    expect(summarizeSourceAnswers(['error', 'error', 'error'])).toEqual({
      verdict: 'unreachable', total: 3, read: 0, missing: 0, noService: 0, failed: 3, pending: 0
    });
    // Still unreachable while the rest loads: nothing it said so far can be believed.
    expect(summarizeSourceAnswers(['error', 'loading', undefined]).verdict).toBe('unreachable');
  });

  it('believes a source that answered at least once, even if some files failed', () => {
    expect(summarizeSourceAnswers(['ok', 'error', 'missing'])).toMatchObject({
      verdict: 'answered', read: 1, failed: 1, missing: 1
    });
    expect(summarizeSourceAnswers(['missing', 'error']).verdict).toBe('answered');
  });

  it('no service beats errors: the source said it serves none', () => {
    expect(summarizeSourceAnswers(['noService', 'error']).verdict).toBe('noService');
  });

  it('is loading before anything settled, and none without files', () => {
    expect(summarizeSourceAnswers(['loading', undefined])).toMatchObject({ verdict: 'loading', pending: 2 });
    expect(summarizeSourceAnswers([]).verdict).toBe('none');
  });

  it('counts every file once and is unreachable exactly when errors are all that settled (property)', () => {
    const state = fc.constantFrom<FileAnswerState>('loading', 'ok', 'missing', 'noService', 'error', undefined);

    fc.assert(fc.property(fc.array(state), (states) => {
      const summary = summarizeSourceAnswers(states);

      expect(summary.read + summary.missing + summary.noService + summary.failed + summary.pending).toBe(states.length);
      expect(summary.verdict === 'unreachable').toBe(summary.failed > 0 && summary.read + summary.missing + summary.noService === 0);
    }));
  });
});
