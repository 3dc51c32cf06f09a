// What a set of answers for one source's files says, taken together (domain README rule "Changelog sources"):
// a source that answered nothing but errors (network, timeouts, 5xx, web pages where files were
// expected) is unreachable, never "no changelog"; only a source that answered is believed when it
// says a file is missing.

/** One file's state as the pages hold it (`undefined`: not asked yet). */
export type FileAnswerState = 'loading' | 'ok' | 'missing' | 'noService' | 'error' | undefined;

export type SourceVerdict =
  /** Nothing settled yet. */
  | 'loading'
  /** At least one file came back or was reported missing by the source: believe it. */
  | 'answered'
  /** The source said it serves no changelogs (one notice per channel). */
  | 'noService'
  /** Only errors came back: nothing is known, the source could not be read. */
  | 'unreachable'
  /** No files were asked for. */
  | 'none';

export interface SourceSummary {
  verdict: SourceVerdict;
  total: number;
  /** Files read and parsed. */
  read: number;
  missing: number;
  noService: number;
  /** Files that could not be read: errors of any kind. */
  failed: number;
  pending: number;
}

export function summarizeSourceAnswers(states: readonly FileAnswerState[]): SourceSummary {
  const count = (wanted: FileAnswerState) => states.filter((state) => state === wanted).length;
  const read = count('ok');
  const missing = count('missing');
  const noService = count('noService');
  const failed = count('error');
  const pending = states.length - read - missing - noService - failed;
  let verdict: SourceVerdict;

  if (!states.length) {
    verdict = 'none';
  } else if (read + missing > 0) {
    verdict = 'answered';
  } else if (noService > 0) {
    verdict = 'noService';
  } else if (failed > 0) {
    verdict = 'unreachable';
  } else {
    verdict = 'loading';
  }

  return {
    verdict, total: states.length, read, missing, noService, failed, pending
  };
}
