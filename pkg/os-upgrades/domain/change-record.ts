// The change record of one move of a pool (approve, roll back, promote): what a person attaches to
// a change ticket. Built only from what the pages read: the stored pool, its history entry, the
// versions of both images' channels and their changelog files. A part that could not be read says
// why instead of being left out; the record is checked against the pool as stored now.
import type { Reason } from './types';
import type { VersionInput } from './channel';
import type { NoServiceReason } from './changelog-source';
import { aggregatePlan, planChangelog, UpdateLogs } from './changelog';
import type { PackageLists, PackageProof } from './advisory-evidence';
import { diffPackages, formatPackageVersion, Package } from './packages';
import { Advisory, advisoryCves } from './updatelog';
import { HistoryEntry, HistoryKind, readHistory, SpecChange } from './history';
import { approvedImage } from './approved-image';
import { isRecord } from './text';
import { nodeLabelProblems, NodeLabelProblem } from './node-labels';

export const CHANGE_RECORD_FORMAT = 'os-upgrades.cattle.io/change-record/v1';

/** One changelog file as the page's loader holds it (undefined: never asked for). */
export type FileAnswer<T> =
  | { state: 'ok'; value: T }
  | { state: 'missing' }
  | { state: 'noService'; reason: NoServiceReason }
  | { state: 'error'; reason: Reason }
  | { state: 'loading' }
  | undefined;

export interface ChangeRecordInput {
  /** The pool as stored now. */
  pool: unknown;
  /** The move recorded, one of the pool's history entries. */
  entry: HistoryEntry;
  /** The versions of both images' channels. */
  versions: readonly VersionInput[];
  /** Update logs by version name (the span between the two images). */
  logs: Record<string, FileAnswer<Advisory[]>>;
  /** Package lists by version name (the two images). */
  packages: Record<string, FileAnswer<Package[]>>;
  /** ISO time the record is made. */
  generatedAt: string;
}

/** Why a part, or some of it, could not be read; `cause` is the loader's own reason. */
export interface RecordProblem {
  reason: Reason;
  cause?: Reason;
}

export type RecordPart<T> = ({ state: 'read' } & T) | { state: 'unread'; problems: RecordProblem[] };

export interface RecordAdvisory {
  id: string;
  type: string;
  severity: string;
  title: string;
  cves: string[];
  /** The image whose log first lists it. */
  image: string;
  /** `packages`: the package lists prove it (`proof`); `date`: only its date says so. */
  evidence: 'packages' | 'date' | '';
  proof: PackageProof[];
}

export interface RecordPackageChange {
  name: string;
  arch: string;
  from?: string;
  to?: string;
}

/** A spec field whose recorded value is not what is stored now. */
export interface StoredDifference {
  field: string;
  recorded: unknown;
  stored: unknown;
}

export interface ChangeRecord {
  format: typeof CHANGE_RECORD_FORMAT;
  generatedAt: string;
  kind: HistoryKind;
  pool: { namespace: string; name: string };
  /** As stored now: `spec.clusterTargets` and `spec.clusterRolloutStrategy` (null when absent). */
  targets: unknown;
  rolloutStrategy: unknown;
  from: { version: string; image: string };
  to: { version: string; image: string };
  approval: { by: string; at: string; comment: string };
  /** The labels of `to.image` a kubelet refuses (rule "Node labels of an image"); only when there are some. */
  nodeLabels?: NodeLabelProblem[];
  /** `downgrade`: the advisories are what the move takes away. */
  advisories: RecordPart<{ direction: 'upgrade' | 'downgrade' | 'same'; advisories: RecordAdvisory[]; cves: string[]; evidence: string; gaps: RecordProblem[] }>;
  packages: RecordPart<{ changes: { upgraded: RecordPackageChange[]; downgraded: RecordPackageChange[]; added: RecordPackageChange[]; removed: RecordPackageChange[] }; unchanged: number }>;
  objectChange: RecordPart<{ changes: SpecChange[] }>;
  check: {
    /** Recorded spec values that differ from the stored pool's now. */
    differences: StoredDifference[];
    /** Moves recorded after this one. */
    laterMoves: number;
    /** The approved-image annotation now, when this is the newest move and it differs from the recorded image. */
    approvedImageNow?: string;
  };
}

function problem(name: string, values?: Record<string, unknown>, cause?: Reason): RecordProblem {
  const reason: Reason = values ? { key: `osUpgrades.changeRecord.problem.${ name }`, values } : { key: `osUpgrades.changeRecord.problem.${ name }` };

  return cause ? { reason, cause } : { reason };
}

function fileProblem(file: 'log' | 'packages', name: string, answer: FileAnswer<unknown>): RecordProblem | undefined {
  switch (answer?.state) {
  case 'ok':
    return undefined;
  case 'missing':
    return problem(`${ file }Missing`, { name });
  case 'noService':
    return problem(`${ file }NoService`, { name, why: answer.reason });
  case 'error':
    return problem(`${ file }Error`, { name }, answer.reason);
  default:
    return problem(`${ file }NotRead`, { name });
  }
}

function recordOf(value: unknown, key: string): Record<string, unknown> {
  return isRecord(value) && isRecord(value[key]) ? value[key] as Record<string, unknown> : {};
}

function okValue<T>(answer: FileAnswer<T>): T | undefined {
  return answer?.state === 'ok' ? answer.value : undefined;
}

function advisoriesPart(input: ChangeRecordInput): ChangeRecord['advisories'] {
  const { entry } = input;

  if (!entry.from) {
    return { state: 'unread', problems: [problem('noPreviousImage')] };
  }
  const plan = planChangelog(input.versions, entry.from, entry.to);

  if (!plan.from || !plan.to) {
    return { state: 'unread', problems: plan.problems.map((reason) => ({ reason })) };
  }
  const logs: UpdateLogs = {};
  const gaps: RecordProblem[] = [];

  for (const version of plan.spanVersions) {
    const log = okValue(input.logs[version.name]);
    const gap = fileProblem('log', version.name, input.logs[version.name]);

    if (log) {
      logs[version.name] = log;
    }
    if (gap) {
      gaps.push(gap);
    }
  }
  const lists: PackageLists = {
    [plan.from.name]: okValue(input.packages[plan.from.name]),
    [plan.to.name]:   okValue(input.packages[plan.to.name]),
  };
  const changelog = aggregatePlan(plan, logs, lists);

  if (changelog.advisoriesUnknown) {
    return { state: 'unread', problems: [problem('acrossChannels'), ...packageProblems(input, plan.from.name, plan.to.name)] };
  }
  const advisories = changelog.advisories.map((advisory) => ({
    id:       advisory.id,
    type:     advisory.type,
    severity: advisory.severity,
    title:    advisory.title,
    cves:     advisoryCves(advisory),
    image:    advisory.versionName,
    evidence: advisory.evidence ?? '' as const,
    proof:    advisory.proof ?? [],
  }));

  return {
    state: 'read', direction: changelog.direction, advisories, cves: changelog.cves, evidence: changelog.evidence, gaps
  };
}

function packageProblems(input: ChangeRecordInput, fromName: string, toName: string): RecordProblem[] {
  return [fileProblem('packages', fromName, input.packages[fromName]), fileProblem('packages', toName, input.packages[toName])]
    .filter((item): item is RecordProblem => !!item);
}

function packageEnd(pkg: Package, side: 'from' | 'to'): RecordPackageChange {
  return {
    name: pkg.name, arch: pkg.arch, [side]: formatPackageVersion(pkg)
  };
}

function packagesPart(input: ChangeRecordInput): ChangeRecord['packages'] {
  const { from, to } = input.entry;

  if (!from) {
    return { state: 'unread', problems: [problem('noPreviousImage')] };
  }
  const older = okValue(input.packages[from]);
  const newer = okValue(input.packages[to]);

  if (!older || !newer) {
    return { state: 'unread', problems: packageProblems(input, from, to) };
  }
  const diff = diffPackages(older, newer);
  const moved = (change: { name: string; arch: string; from: Package; to: Package }): RecordPackageChange => ({
    name: change.name, arch: change.arch, from: formatPackageVersion(change.from), to: formatPackageVersion(change.to)
  });

  return {
    state:   'read',
    changes: {
      upgraded:   diff.upgraded.map(moved),
      downgraded: diff.downgraded.map(moved),
      added:      diff.added.map((pkg) => packageEnd(pkg, 'to')),
      removed:    diff.removed.map((pkg) => packageEnd(pkg, 'from')),
    },
    unchanged: diff.unchanged,
  };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function checkPart(input: ChangeRecordInput): ChangeRecord['check'] {
  const spec = recordOf(input.pool, 'spec');
  const entries = readHistory(input.pool).entries;
  const index = entries.findIndex((entry) => same(entry, input.entry));
  const laterMoves = index < 0 ? 0 : entries.length - 1 - index;
  const differences = (input.entry.changes ?? [])
    .filter((change) => !same(change.after, spec[change.field]))
    .map((change) => ({
      field: change.field, recorded: change.after ?? null, stored: spec[change.field] ?? null
    }));
  const check: ChangeRecord['check'] = { differences, laterMoves };
  const imageNow = approvedImage(input.pool);

  if (laterMoves === 0 && input.entry.toImage && imageNow !== input.entry.toImage) {
    check.approvedImageNow = imageNow ?? '';
  }

  return check;
}

/** The change record of one history entry of a pool (see the file's head). Pure; never throws. */
function nodeLabelsPart(image: string): { nodeLabels?: NodeLabelProblem[] } {
  const problems = nodeLabelProblems(image);

  return problems.length ? { nodeLabels: problems } : {};
}

export function changeRecord(input: ChangeRecordInput): ChangeRecord {
  const metadata = recordOf(input.pool, 'metadata');
  const spec = recordOf(input.pool, 'spec');
  const { entry } = input;

  return {
    format:          CHANGE_RECORD_FORMAT,
    generatedAt:     input.generatedAt,
    kind:            entry.kind,
    pool:            { namespace: String(metadata.namespace ?? ''), name: String(metadata.name ?? '') },
    targets:         spec.clusterTargets ?? null,
    rolloutStrategy: spec.clusterRolloutStrategy ?? null,
    from:            { version: entry.from, image: entry.fromImage ?? '' },
    to:              { version: entry.to, image: entry.toImage ?? '' },
    approval:        {
      by: entry.by, at: entry.at, comment: entry.comment
    },
    ...nodeLabelsPart(entry.toImage ?? ''),
    advisories:   advisoriesPart(input),
    packages:     packagesPart(input),
    objectChange: entry.changes ? { state: 'read', changes: entry.changes } : { state: 'unread', problems: [problem('changeNotRecorded')] },
    check:        checkPart(input),
  };
}
