// Steve's list summaries (`summary=`), with the SQL cache only: for each field named, how many of
// the listed objects have each value, counted over the page asked for (`page`/`pagesize`; all that
// the filters match without them): the summary's query keeps the list's LIMIT and OFFSET
// (rancher/steve pkg/sqlcache/informer/sqlgenerator.go compileQuery, whose isSummaryFilter skips
// only summaryonly's LIMIT 0; recorded in tests/conformance/recordings/steve-lists.json).
//   rancher/steve pkg/stores/sqlpartition/listprocessor/processor.go: at most one `summary`
//     parameter, its fields split by commas; `summaryonly` needs a `summary`; `summarynamespaced`
//     breaks each count down by namespace.
//   rancher/steve pkg/sqlcache/informer/summary_fields.go: a label field counts the objects carrying
//     the label with a non-empty value (`WHERE label = ? AND k != ""`); the entries are sorted by
//     property; rancher/apiserver pkg/types/types.go serialises them as the collection's `summary`.
//   rancher/steve pkg/sqlcache/informer/sqlgenerator.go: `summaryonly` answers no items (LIMIT 0);
//     getLabelColumnNameToDisplay names a label field `metadata.labels[<key>]` (a simple name keeps
//     the dotted form).
// Which Rancher serves which part: rancher-version.ts `steveSummary`.

import { badRequest } from '../kube/errors';
import { JsonObject } from '../core/json';
import { KubeObject } from '../kube/store';
import type { SteveSummarySupport } from '../rancher/rancher-version';
import { parsePath, valueAt } from './steve-query';

export interface ListSummary {
  summary: JsonObject[];
  /** `summaryonly`: the answer carries no items. */
  summaryOnly: boolean;
}

function displayName(parts: string[]): string {
  const [first, second, key] = parts;

  if (first === 'metadata' && second === 'labels' && key !== undefined && !/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(key)) {
    return `metadata.labels[${ key }]`;
  }

  return parts.join('.');
}

function valueOf(object: KubeObject, parts: string[], field: string): string {
  const value = parts[0] === 'metadata' && parts[1] === 'labels' ? object.metadata.labels?.[parts[2]] : valueAt(object, field);

  return value === undefined || value === null ? '' : String(value);
}

/** The summary Steve adds to a list answer (over `matched`, the answered page), or undefined when the request asks none (or this Steve has none). */
export function listSummary(params: URLSearchParams, matched: readonly KubeObject[], support: SteveSummarySupport): ListSummary | undefined {
  if (support === 'none') {
    return undefined;
  }
  const asked = params.getAll('summary');

  if (asked.length > 1) {
    throw badRequest(`got ${ asked.length } summary parameters, at most 1 is allowed`);
  }
  const latest = support === 'summaryOnly';
  const summaryOnly = latest && params.has('summaryonly') && ['', 'true'].includes(params.getAll('summaryonly').pop() ?? '');
  const namespaced = latest && params.get('summarynamespaced') === 'true';

  if (!asked.length) {
    if (latest && params.has('summaryonly')) {
      throw badRequest('got a summaryonly parameter but no summary fields');
    }

    return undefined;
  }
  const fields = asked[0].split(',');

  if (fields.some((field) => !field)) {
    throw badRequest('unable to parse requirement: empty summary parameter doesn\'t make sense');
  }
  const summary = fields.map((field) => {
    const parts = parsePath(field);
    const counts: Record<string, { total: number; namespace?: Record<string, number> }> = {};

    for (const object of matched) {
      const value = valueOf(object, parts, field);

      if (!value) {
        continue;
      }
      const entry = counts[value] ?? (counts[value] = { total: 0, ...(namespaced ? { namespace: {} } : {}) });

      entry.total++;
      if (entry.namespace) {
        const ns = object.metadata.namespace ?? '';

        entry.namespace[ns] = (entry.namespace[ns] ?? 0) + 1;
      }
    }

    return { property: displayName(parts), counts } as JsonObject;
  });

  summary.sort((a, b) => String(a.property).toLowerCase().localeCompare(String(b.property).toLowerCase()));

  return { summary, summaryOnly };
}
