// The change record as the two files a person downloads: Markdown in their language, JSON for tools.
import type { Reason } from './types';
import type { ChangeRecord, RecordPackageChange, RecordProblem } from './change-record';

/** The person's translation: a key and its values to text. */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

const KEY = 'osUpgrades.changeRecord.md';

/** A fenced block whose fence is longer than any backtick run inside, so no text can close it early. */
function fenced(text: string, language = ''): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);

  return `${ fence }${ language }\n${ text }\n${ fence }`;
}

/** Inline code that no backtick in `text` can end. */
function code(text: string): string {
  if (!text) {
    return '';
  }
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);

  return `${ ticks } ${ text } ${ ticks }`;
}

/** Plain text in a Markdown line or table cell: Markdown's own characters escaped, no line breaks. */
function plain(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${ c }`).replace(/\s*\n\s*/g, ' ');
}

function json(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

function problemText(t: Translate, item: RecordProblem): string {
  const main = t(item.reason.key, item.reason.values);

  return item.cause ? `${ main }: ${ t(item.cause.key, item.cause.values) }` : main;
}

function problemLines(t: Translate, problems: RecordProblem[]): string[] {
  return problems.map((item) => `- ⚠ ${ plain(problemText(t, item)) }`);
}

function packageRow(change: RecordPackageChange): string {
  return `| ${ plain(change.name) } | ${ plain(change.arch) } | ${ code(change.from ?? '') } | ${ code(change.to ?? '') } |`;
}

function advisoriesSection(t: Translate, record: ChangeRecord): string[] {
  const part = record.advisories;
  const heading = part.state === 'read' && part.direction === 'downgrade' ? 'advisoriesTakenAway' : 'advisories';
  const lines = [`## ${ t(`${ KEY }.${ heading }`) }`, ''];

  if (part.state === 'unread') {
    return [...lines, ...problemLines(t, part.problems), ''];
  }
  lines.push(t(`${ KEY }.evidence.${ part.evidence }`), '');
  if (part.advisories.length) {
    lines.push(`| ${ t(`${ KEY }.advisory`) } | ${ t(`${ KEY }.severity`) } | ${ t(`${ KEY }.cves`) } | ${ t(`${ KEY }.why`) } |`, '| --- | --- | --- | --- |');
    for (const advisory of part.advisories) {
      const why = advisory.evidence === 'packages' ? advisory.proof.map((proof) => t(`${ KEY }.proof`, {
        name: proof.name, fixedIn: proof.fixedIn, before: proof.before ?? '—', after: proof.after
      })).join('; ') : t(`${ KEY }.byDate`, { image: advisory.image });

      lines.push(`| ${ plain(advisory.id) } ${ plain(advisory.title) } | ${ plain(advisory.severity || '—') } | ${ plain(advisory.cves.join(', ') || '—') } | ${ plain(why) } |`);
    }
  } else {
    lines.push(t(`${ KEY }.noAdvisories`));
  }
  lines.push('', `${ t(`${ KEY }.cves`) }: ${ plain(part.cves.join(', ') || '—') }`);

  return [...lines, ...(part.gaps.length ? ['', ...problemLines(t, part.gaps)] : []), ''];
}

function packagesSection(t: Translate, record: ChangeRecord): string[] {
  const part = record.packages;
  const lines = [`## ${ t(`${ KEY }.packages`) }`, ''];

  if (part.state === 'unread') {
    return [...lines, ...problemLines(t, part.problems), ''];
  }
  const {
    upgraded, downgraded, added, removed
  } = part.changes;
  const rows = [...upgraded, ...downgraded, ...added, ...removed];

  lines.push(t(`${ KEY }.packageCounts`, {
    upgraded: upgraded.length, downgraded: downgraded.length, added: added.length, removed: removed.length, unchanged: part.unchanged
  }), '');
  if (rows.length) {
    lines.push(`| ${ t(`${ KEY }.package`) } | ${ t(`${ KEY }.arch`) } | ${ t(`${ KEY }.before`) } | ${ t(`${ KEY }.after`) } |`, '| --- | --- | --- | --- |', ...rows.map(packageRow));
  }

  return [...lines, ''];
}

function objectSection(t: Translate, record: ChangeRecord): string[] {
  const part = record.objectChange;
  const lines = [`## ${ t(`${ KEY }.objectChange`) }`, ''];

  if (part.state === 'unread') {
    lines.push(...problemLines(t, part.problems), '');
  } else {
    for (const change of part.changes) {
      const value = (item: unknown) => (item === undefined ? t(`${ KEY }.absent`) : fenced(json(item), 'json'));

      lines.push(`### spec.${ plain(change.field) }`, '', t(`${ KEY }.before`), '', value(change.before), '', t(`${ KEY }.after`), '', value(change.after), '');
    }
  }
  const { check } = record;

  lines.push(`### ${ t(`${ KEY }.check`) }`, '');
  if (!check.differences.length && check.approvedImageNow === undefined) {
    lines.push(t(`${ KEY }.matchesStored`));
  }
  for (const difference of check.differences) {
    lines.push(`- ⚠ ${ plain(t(`${ KEY }.differs`, { field: `spec.${ difference.field }`, stored: JSON.stringify(difference.stored) })) }`);
  }
  if (check.approvedImageNow !== undefined) {
    lines.push(`- ⚠ ${ plain(t(`${ KEY }.imageDiffers`, { image: check.approvedImageNow || '—' })) }`);
  }
  if (check.laterMoves) {
    lines.push('', t(`${ KEY }.laterMoves`, { count: check.laterMoves }));
  }

  return [...lines, ''];
}

/** The record as Markdown, every heading and sentence in the person's language (`t`). */
export function changeRecordMarkdown(record: ChangeRecord, t: Translate): string {
  const { approval } = record;
  const pool = `${ record.pool.namespace }/${ record.pool.name }`;
  const image = (end: { version: string; image: string }) => (end.version ? `${ code(end.version) } ${ end.image ? code(end.image) : t(`${ KEY }.notRecorded`) }` : t(`${ KEY }.none`));
  const lines = [
    `# ${ plain(t(`${ KEY }.title.${ record.kind }`, { pool })) }`,
    '',
    `- ${ t(`${ KEY }.pool`) }: ${ code(pool) }`,
    `- ${ t(`${ KEY }.from`) }: ${ image(record.from) }`,
    `- ${ t(`${ KEY }.to`) }: ${ image(record.to) }`,
    `- ${ t(`${ KEY }.by`) }: ${ plain(approval.by) }`,
    `- ${ t(`${ KEY }.at`) }: ${ plain(approval.at) }`,
    `- ${ t(`${ KEY }.generatedAt`) }: ${ plain(record.generatedAt) }`,
    ...(record.nodeLabels ?? []).slice(0, 1).map((p) => `\n**${ plain(t(`${ KEY }.nodeLabels`, { key: p.key, length: p.value.length })) }**`),
    '',
    `## ${ t(`${ KEY }.comment`) }`,
    '',
    approval.comment ? approval.comment.split('\n').map((line) => `> ${ plain(line) }`).join('\n') : t(`${ KEY }.noComment`),
    '',
    `## ${ t(`${ KEY }.targets`) }`,
    '',
    t(`${ KEY }.asStoredNow`),
    '',
    fenced(json(record.targets), 'json'),
    '',
    `## ${ t(`${ KEY }.stages`) }`,
    '',
    t(`${ KEY }.stagesAsStoredNow`),
    '',
    record.rolloutStrategy === null ? t(`${ KEY }.noStages`) : fenced(json(record.rolloutStrategy), 'json'),
    '',
    ...advisoriesSection(t, record),
    ...packagesSection(t, record),
    ...objectSection(t, record),
  ];

  return `${ lines.join('\n').trimEnd() }\n`;
}

function withText(t: Translate, reason: Reason): Reason & { text: string } {
  return { ...reason, text: t(reason.key, reason.values) };
}

/** The record as JSON: the record itself, each problem with its text in the person's language beside its key. */
export function changeRecordJson(record: ChangeRecord, t: Translate): string {
  return `${ JSON.stringify(record, (key, value) => {
    if ((key === 'reason' || key === 'cause') && value && typeof value === 'object' && typeof value.key === 'string') {
      return withText(t, value as Reason);
    }

    return value;
  }, 2) }\n`;
}
