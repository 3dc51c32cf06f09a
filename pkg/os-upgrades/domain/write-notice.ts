import type { Reason } from './types';
import { truncateForDisplay } from './input-rules';
import { isUnclear, WriteOutcome, WriteVerdict } from './write-outcome';

// What a person is told after a write (any outcome of api/write.ts): what was written, what was
// not, and what to do next. <WriteNotice> shows it; each write names its subject, whose texts are
// the table below.

/** What a notice offers to do next: load the object as stored now, log in again, read it again. */
export type WriteAction = 'loadLatest' | 'loginAgain' | 'readAgain';

export interface WriteNotice {
  /** The outcome's kind, or `alreadyDone` when someone else wrote the same change first. */
  kind: WriteOutcome['kind'] | 'alreadyDone';
  /** `success`: it is stored; `warning`: nothing was written, try again on the new state; `error`: the rest. */
  tone: 'success' | 'warning' | 'error';
  text: Reason;
  /** Reasons translated into `text`'s values of the same name (the refusal, the read-back verdict). */
  parts: Record<string, Reason>;
  action?: WriteAction;
  /** Confirming again could write twice: the object was written, changed by someone else, or could not be read. */
  settled: boolean;
}

/** Which write is told about: each says it in its own words. */
export type WriteSubject = 'poolForm' | 'approval' | 'withdrawal' | 'restore' | 'sources';

export interface WriteNoticeContext {
  subject: WriteSubject;
  /** 401: the person's entries were kept in this browser for after the new login. */
  kept?: boolean;
  /** After a conflict or refusal: what is stored now is what this write meant to store (someone else was first). */
  alreadyDone?: boolean;
  /** Values the subject's texts name: namespace, seconds, pool, image. */
  values?: Record<string, unknown>;
}

interface SubjectTexts {
  /** A plain success (none: the form or dialog closes, nothing to say). */
  written?: string;
  /** The answer was lost, a read afterwards holds what was sent. */
  writtenReadBack?: string;
  /** With {reason}; none: the refusal's own text. */
  refused?: string;
  conflict: string;
  alreadyDone?: string;
  forbidden: string;
  invalid: string;
  unauthorized: string;
  unauthorizedNotKept: string;
  /** No clear answer, with {message} and {verdict} (and {seconds} for a timeout). */
  unclear: Record<'failed' | 'timeout' | 'cancelled', string>;
  /** The unclear text is one sentence per verdict: `<unclear>.<verdict>`, with {message}. */
  unclearPerVerdict?: boolean;
  onConflict?: WriteAction;
  /** Offered when the read-back shows something was (or may have been) written. */
  onUnclear?: WriteAction;
}

const sameText = (key: string) => ({
  failed: key, timeout: key, cancelled: key
});

const WITHDRAWAL: SubjectTexts = {
  writtenReadBack:     'osUpgrades.withdraw.writtenReadBack',
  conflict:            'osUpgrades.withdraw.conflict',
  forbidden:           'osUpgrades.withdraw.forbidden',
  invalid:             'osUpgrades.withdraw.invalid',
  unauthorized:        'osUpgrades.withdraw.unauthorized',
  unauthorizedNotKept: 'osUpgrades.withdraw.unauthorizedNotKept',
  unclear:             sameText('osUpgrades.withdraw.failed'),
  onUnclear:           'readAgain',
};

const TEXTS: Record<WriteSubject, SubjectTexts> = {
  poolForm: {
    conflict:            'osUpgrades.poolForm.conflict',
    forbidden:           'osUpgrades.poolForm.forbidden',
    invalid:             'osUpgrades.poolForm.invalid',
    // The form is always kept (in this tab's session storage).
    unauthorized:        'osUpgrades.poolForm.unauthorized',
    unauthorizedNotKept: 'osUpgrades.poolForm.unauthorized',
    unclear:             {
      failed: 'osUpgrades.poolForm.failed', timeout: 'osUpgrades.poolForm.timeout', cancelled: 'osUpgrades.poolForm.cancelled'
    },
    onConflict: 'loadLatest',
  },
  approval: {
    refused:             'osUpgrades.approve.refused',
    conflict:            'osUpgrades.approve.conflict',
    alreadyDone:         'osUpgrades.approve.alreadyAt',
    forbidden:           'osUpgrades.approve.forbidden',
    invalid:             'osUpgrades.approve.failed',
    unauthorized:        'osUpgrades.approve.unauthorizedKept',
    unauthorizedNotKept: 'osUpgrades.approve.unauthorized',
    unclear:             sameText('osUpgrades.approve.failedVerdict'),
  },
  withdrawal: WITHDRAWAL,
  restore:    { ...WITHDRAWAL, writtenReadBack: 'osUpgrades.withdraw.restoredReadBack' },
  sources:    {
    written:             'osUpgrades.sources.saved',
    writtenReadBack:     'osUpgrades.sources.savedReadBack',
    conflict:            'osUpgrades.sources.conflict',
    forbidden:           'osUpgrades.sources.forbidden',
    invalid:             'osUpgrades.sources.writeFailed',
    unauthorized:        'osUpgrades.sources.unauthorized',
    unauthorizedNotKept: 'osUpgrades.sources.unauthorizedNotKept',
    unclear:             sameText('osUpgrades.sources.noAnswer'),
    unclearPerVerdict:   true,
  },
};

/**
 * Whether anything was written, in words. Nothing read back after a timeout or a cancel may
 * still be applied: the server may act on what it received after the wait ended.
 */
export function verdictReason(kind: 'failed' | 'timeout' | 'cancelled', written: WriteVerdict): Reason {
  return { key: written === 'notWritten' && kind !== 'failed' ? 'osUpgrades.write.mayStillApply' : `osUpgrades.write.readBack.${ written }` };
}

/** What to tell the person about `outcome`; undefined when there is nothing to say (a plain success that closes the dialog). */
export function writeNotice(outcome: WriteOutcome, context: WriteNoticeContext): WriteNotice | undefined {
  const texts = TEXTS[context.subject];
  const values = { ...context.values, ...('message' in outcome ? { message: truncateForDisplay(outcome.message) } : {}) };
  const notice = (kind: WriteNotice['kind'], tone: WriteNotice['tone'], key: string, more: Partial<WriteNotice> = {}): WriteNotice => ({
    kind, tone, text: { key, values }, parts: {}, settled: false, ...more
  });

  if ((outcome.kind === 'conflict' || outcome.kind === 'refused') && context.alreadyDone && texts.alreadyDone) {
    return notice('alreadyDone', 'warning', texts.alreadyDone);
  }
  if (isUnclear(outcome)) {
    const settled = outcome.written !== 'notWritten';
    const more = { settled, ...(settled && texts.onUnclear ? { action: texts.onUnclear } : {}) };

    return texts.unclearPerVerdict ? notice(outcome.kind, 'error', `${ texts.unclear[outcome.kind] }.${ outcome.written }`, more) : notice(outcome.kind, 'error', texts.unclear[outcome.kind], { ...more, parts: { verdict: verdictReason(outcome.kind, outcome.written) } });
  }

  switch (outcome.kind) {
  case 'written': {
    const key = outcome.readBack ? texts.writtenReadBack : texts.written;

    return key ? notice('written', 'success', key, { settled: outcome.readBack }) : undefined;
  }
  case 'refused':
    return texts.refused ? notice('refused', 'warning', texts.refused, { parts: { reason: outcome.reason } }) : {
      kind: 'refused', tone: 'warning', text: outcome.reason, parts: {}, settled: false
    };
  case 'conflict':
    return notice('conflict', 'warning', texts.conflict, texts.onConflict ? { action: texts.onConflict } : {});
  case 'unauthorized':
    return notice('unauthorized', 'error', context.kept ? texts.unauthorized : texts.unauthorizedNotKept, { action: 'loginAgain' });
  default:
    return notice(outcome.kind, 'error', texts[outcome.kind]);
  }
}
