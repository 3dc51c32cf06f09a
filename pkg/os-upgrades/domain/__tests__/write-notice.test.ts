import fc from 'fast-check';
import { readFileSync } from 'fs';
import { join } from 'path';
import jsyaml from 'js-yaml';
import {
  DISPLAY_TEXT_MAX, WriteNoticeContext, writeNotice, WriteOutcome, WriteSubject
} from '..';

const load = (file: string) => (jsyaml as unknown as { load(text: string): unknown }).load(readFileSync(join(__dirname, '../../l10n', file), 'utf8'));
const LANGUAGES = { en: load('en-us.yaml'), zh: load('zh-hans.yaml') };

function text(language: unknown, key: string): string | undefined {
  const value = key.split('.').reduce((node: unknown, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), language);

  return typeof value === 'string' ? value : undefined;
}

/** The `{name}` placeholders of a message (not ICU plural bodies). */
const placeholders = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

const SUBJECTS: WriteSubject[] = ['poolForm', 'approval', 'withdrawal', 'restore', 'sources'];
const STORED = { metadata: { name: 'stable' } };
const OTHER = { key: 'osUpgrades.withdrawal.refusal.reasonRequired' };

const verdict = fc.constantFrom('written' as const, 'notWritten' as const, 'other' as const, 'unknown' as const);
const message = fc.string({ maxLength: 400 });
const outcome: fc.Arbitrary<WriteOutcome> = fc.oneof(
  fc.boolean().map((readBack) => ({
    kind: 'written' as const, stored: STORED, readBack
  })),
  fc.constant({ kind: 'refused' as const, reason: OTHER }),
  message.map((m) => ({ kind: 'conflict' as const, message: m })),
  fc.tuple(fc.constantFrom('forbidden' as const, 'invalid' as const, 'unauthorized' as const), message).map(([kind, m]) => ({ kind, message: m })),
  fc.tuple(fc.constantFrom('failed' as const, 'timeout' as const, 'cancelled' as const), message, verdict).map(([kind, m, written]) => ({
    kind, message: m, written
  })),
);
const context: fc.Arbitrary<WriteNoticeContext> = fc.record({
  subject:     fc.constantFrom(...SUBJECTS),
  kept:        fc.boolean(),
  alreadyDone: fc.boolean(),
  values:      fc.constant({
    namespace: 'fleet-default', seconds: 30, pool: 'edge', image: 'os-v2'
  }),
});

describe('writeNotice: what a write did, in words', () => {
  it('names texts that exist in every language, with every value they show', () => {
    fc.assert(fc.property(outcome, context, (o, c) => {
      const notice = writeNotice(o, c);

      if (!notice) {
        return;
      }
      for (const language of Object.values(LANGUAGES)) {
        const main = text(language, notice.text.key);

        expect(main).toBeDefined();
        for (const name of placeholders(main ?? '')) {
          expect({ ...notice.text.values, ...notice.parts }).toHaveProperty(name);
        }
        Object.values(notice.parts).forEach((part) => expect(text(language, part.key)).toBeDefined());
      }
    }));
  });

  it('says nothing about a plain success that closes the dialog; the sources page says Saved', () => {
    const written: WriteOutcome = {
      kind: 'written', stored: STORED, readBack: false
    };

    expect(writeNotice(written, { subject: 'poolForm' })).toBeUndefined();
    expect(writeNotice(written, { subject: 'approval' })).toBeUndefined();
    expect(writeNotice(written, { subject: 'withdrawal' })).toBeUndefined();
    expect(writeNotice(written, { subject: 'sources' })).toMatchObject({
      tone: 'success', text: { key: 'osUpgrades.sources.saved' }, settled: false
    });
  });

  it('says a lost answer was stored after all, and that confirming again would write twice', () => {
    const written: WriteOutcome = {
      kind: 'written', stored: STORED, readBack: true
    };

    expect(writeNotice(written, { subject: 'withdrawal' })).toMatchObject({
      tone: 'success', text: { key: 'osUpgrades.withdraw.writtenReadBack' }, settled: true
    });
    expect(writeNotice(written, { subject: 'restore' })).toMatchObject({ text: { key: 'osUpgrades.withdraw.restoredReadBack' } });
    expect(writeNotice(written, { subject: 'sources' })).toMatchObject({ text: { key: 'osUpgrades.sources.savedReadBack' }, settled: true });
  });

  it('after a timeout or a cancel, nothing read back may still be applied; after a failure it was not written', () => {
    const unclear = (kind: 'failed' | 'timeout' | 'cancelled') => writeNotice({
      kind, message: 'boom', written: 'notWritten'
    }, { subject: 'poolForm', values: { seconds: 30 } });

    expect(unclear('timeout')).toMatchObject({
      tone: 'error', text: { key: 'osUpgrades.poolForm.timeout', values: { seconds: 30 } }, parts: { verdict: { key: 'osUpgrades.write.mayStillApply' } }, settled: false
    });
    expect(unclear('cancelled')).toMatchObject({ text: { key: 'osUpgrades.poolForm.cancelled' }, parts: { verdict: { key: 'osUpgrades.write.mayStillApply' } } });
    expect(unclear('failed')).toMatchObject({ text: { key: 'osUpgrades.poolForm.failed', values: { message: 'boom' } }, parts: { verdict: { key: 'osUpgrades.write.readBack.notWritten' } } });
  });

  it('after an unclear answer that someone else wrote over, or that could not be read, confirming again is held back and the channel can be read again', () => {
    for (const written of ['other', 'unknown'] as const) {
      const outcome: WriteOutcome = {
        kind: 'failed', message: 'boom', written
      };

      expect(writeNotice(outcome, { subject: 'withdrawal' })).toMatchObject({
        settled: true, action: 'readAgain', parts: { verdict: { key: `osUpgrades.write.readBack.${ written }` } }
      });
      expect(writeNotice(outcome, { subject: 'poolForm' })?.action).toBeUndefined();
      expect(writeNotice(outcome, { subject: 'sources' })).toMatchObject({ settled: true, text: { key: `osUpgrades.sources.noAnswer.${ written }` } });
    }
    const notWritten = writeNotice({
      kind: 'failed', message: 'boom', written: 'notWritten'
    }, { subject: 'withdrawal' });

    expect(notWritten?.settled).toBe(false);
    expect(notWritten?.action).toBeUndefined();
  });

  it('after a 409 nothing was written: the pool form offers to load the latest', () => {
    const conflict: WriteOutcome = { kind: 'conflict', message: 'Conflict' };

    expect(writeNotice(conflict, { subject: 'poolForm' })).toMatchObject({
      tone: 'warning', text: { key: 'osUpgrades.poolForm.conflict' }, action: 'loadLatest'
    });
    expect(writeNotice(conflict, { subject: 'approval' })).toMatchObject({ text: { key: 'osUpgrades.approve.conflict' } });
    expect(writeNotice(conflict, { subject: 'approval' })?.action).toBeUndefined();
    expect(writeNotice(conflict, { subject: 'sources' })).toMatchObject({ text: { key: 'osUpgrades.sources.conflict' } });
  });

  it('says someone else approved the same image first, after a conflict or a refusal', () => {
    const values = { pool: 'edge', image: 'os-v2' };

    for (const outcome of [{ kind: 'conflict', message: '' }, { kind: 'refused', reason: OTHER }] as WriteOutcome[]) {
      expect(writeNotice(outcome, {
        subject: 'approval', alreadyDone: true, values
      })).toMatchObject({ kind: 'alreadyDone', text: { key: 'osUpgrades.approve.alreadyAt', values } });
    }
  });

  it('a refusal is said in the dialog\'s words, or as the refusal itself', () => {
    const refused: WriteOutcome = { kind: 'refused', reason: OTHER };

    expect(writeNotice(refused, { subject: 'approval' })).toMatchObject({ text: { key: 'osUpgrades.approve.refused' }, parts: { reason: OTHER } });
    expect(writeNotice(refused, { subject: 'withdrawal' })).toMatchObject({
      tone: 'warning', text: OTHER, parts: {}
    });
  });

  it('after a 401 says whether the entries were kept, and offers to log in again', () => {
    const unauthorized: WriteOutcome = { kind: 'unauthorized', message: 'must authenticate' };

    expect(writeNotice(unauthorized, { subject: 'withdrawal', kept: true })).toMatchObject({ text: { key: 'osUpgrades.withdraw.unauthorized' }, action: 'loginAgain' });
    expect(writeNotice(unauthorized, { subject: 'withdrawal', kept: false })).toMatchObject({ text: { key: 'osUpgrades.withdraw.unauthorizedNotKept' } });
    expect(writeNotice(unauthorized, { subject: 'approval', kept: true })).toMatchObject({ text: { key: 'osUpgrades.approve.unauthorizedKept' } });
    expect(writeNotice(unauthorized, { subject: 'sources', kept: false })).toMatchObject({ text: { key: 'osUpgrades.sources.unauthorizedNotKept' } });
  });

  it('says a refusal by the server in the subject\'s words, with the server\'s message cut to a readable length', () => {
    const long = 'x'.repeat(DISPLAY_TEXT_MAX * 3);

    expect(writeNotice({ kind: 'forbidden', message: 'no' }, { subject: 'poolForm', values: { namespace: 'fleet-default' } })).toMatchObject({ tone: 'error', text: { key: 'osUpgrades.poolForm.forbidden', values: { namespace: 'fleet-default' } } });
    const invalid = writeNotice({ kind: 'invalid', message: long }, { subject: 'withdrawal' });

    expect(invalid?.text.key).toBe('osUpgrades.withdraw.invalid');
    expect(String(invalid?.text.values?.message).length).toBeLessThan(long.length);
  });
});
