// Steve's list query parameters (rancher/steve pkg/stores/sqlproxy and pkg/stores/partition: filter, sort, page, pagesize, labelSelector).
// Steve's list query parameters (the SQL-cache "vai" syntax the dashboard sends since Rancher 2.9):
//   filter=a.b=x (exact), ==, != , ~ (contains), !~, a IN (x,y), a NOTIN (x,y), a > 1, a < 2,
//   filter=a (exists), filter=!a (does not exist); commas inside one filter mean OR, several
//   filter parameters mean AND. Paths may index maps and arrays: metadata.labels[app.kubernetes.io/name],
//   metadata.fields[2]. sort=a,-b. projectsornamespaces=a,b (or !a,b).

import { badRequest } from '../kube/errors';
import { isObject } from '../core/json';
import { LabelSelector } from '../kube/labels';
import { KubeObject } from '../kube/store';

type Predicate = (object: unknown) => boolean;

const parsedPaths = new Map<string, string[]>();

/** `a.b[c.d].e[2]` → ['a', 'b', 'c.d', 'e', '2']. */
export function parsePath(path: string): string[] {
  const known = parsedPaths.get(path);

  if (known) {
    return known;
  }
  const parts: string[] = [];
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  let match: RegExpExecArray | null;

  while ((match = re.exec(path)) !== null) {
    parts.push(match[1] ?? match[2]);
  }
  if (parsedPaths.size < 1000) {
    parsedPaths.set(path, parts);
  }

  return parts;
}

export function valueAt(object: unknown, path: string): unknown {
  let current = object;

  for (const part of parsePath(path)) {
    if (Array.isArray(current)) {
      current = current[Number(part)];
    } else if (isObject(current)) {
      current = current[part];
    } else {
      return undefined;
    }
  }

  return current;
}

function text(value: unknown): string {
  if (value === undefined || value === null) {
    return '';
  }

  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function unquote(value: string): string {
  const trimmed = value.trim();

  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

/** Splits on commas outside parentheses and quotes. */
function splitOr(filter: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';

  for (const ch of filter) {
    if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === '(') {
      depth++;
    } else if (!quoted && ch === ')') {
      depth--;
    }
    if (ch === ',' && depth === 0 && !quoted) {
      out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  out.push(current);

  return out.map((s) => s.trim()).filter(Boolean);
}

function term(expression: string): Predicate {
  let match = /^(.+?)\s+(IN|NOTIN)\s+\((.*)\)$/.exec(expression);

  if (match) {
    const [, path, op, list] = match;
    const values = list.split(',').map(unquote);

    return (o) => values.includes(text(valueAt(o, path))) === (op === 'IN');
  }
  match = /^(.+?)\s*(==|!=|!~|=|~|<|>|\s+gt\s+|\s+lt\s+)\s*(.*)$/.exec(expression);
  if (match) {
    const [, path, rawOp, rawValue] = match;
    const op = rawOp.trim();
    const expected = unquote(rawValue.replace(/^\((.*)\)$/, '$1'));

    return (o) => {
      const actual = valueAt(o, path);
      const values = Array.isArray(actual) ? actual.map(text) : [text(actual)];

      switch (op) {
      case '=':
      case '==':
        return values.includes(expected);
      case '!=':
        return !values.includes(expected);
      case '~':
        return values.some((v) => v.toLowerCase().includes(expected.toLowerCase()));
      case '!~':
        return !values.some((v) => v.toLowerCase().includes(expected.toLowerCase()));
      case '<':
      case 'lt':
        return values.some((v) => Number(v) < Number(expected));
      default:
        return values.some((v) => Number(v) > Number(expected));
      }
    };
  }
  if (/^!\s*[\w.[\]/-]+$/.test(expression)) {
    const path = expression.replace(/^!\s*/, '');

    return (o) => valueAt(o, path) === undefined;
  }
  if (/^[\w.[\]/-]+$/.test(expression)) {
    return (o) => valueAt(o, expression) !== undefined;
  }
  throw badRequest(`invalid filter: ${ expression }`);
}

/** Every `filter` parameter must hold (AND); within one, any comma-separated term (OR). */
export function filterPredicate(params: URLSearchParams): Predicate {
  const groups = params.getAll('filter').map((filter) => splitOr(filter).map(term));

  return (o) => groups.every((any) => any.some((p) => p(o)));
}

const LABEL_EQUALITY = /^metadata\.labels\[([^\]]+)\]\s*==?\s*([^=~].*)$/;
const LABEL_IN = /^metadata\.labels\[([^\]]+)\]\s+IN\s+\((.*)\)$/;

/** The label and values a one-term filter keeps: `metadata.labels[k]=v` or `metadata.labels[k] IN (v, w)`. */
function labelTerm(filter: string): { key: string; values: string[] } | undefined {
  const terms = splitOr(filter);

  if (terms.length !== 1) {
    return undefined;
  }
  const within = LABEL_IN.exec(terms[0]);

  if (within) {
    return { key: within[1], values: within[2].split(',').map(unquote) };
  }
  const equal = /\s(IN|NOTIN)\s*\(/.test(terms[0]) ? null : LABEL_EQUALITY.exec(terms[0]);

  return equal ? { key: equal[1], values: [unquote(equal[2].replace(/^\((.*)\)$/, '$1'))] } : undefined;
}

/**
 * The `filter=` parameters of one term (no OR) that keep only objects labelled k=v (or k in a
 * set of values; none of them empty), so the label index can answer them before the filter runs,
 * as Steve's SQL cache joins its labels table (rancher/steve pkg/sqlcache/informer/listoption_indexer.go).
 * The shell's findPage asks `metadata.labels[k] IN (v)` (rancher/dashboard shell/plugins/steve/steve-pagination-utils.ts).
 */
export function labelEqualityFilters(params: URLSearchParams): LabelSelector {
  return params.getAll('filter').map(labelTerm)
    .filter((found): found is { key: string; values: string[] } => !!found)
    // `=` with nothing also matches objects without the label: only the scan answers it.
    .filter(({ values }) => values.every((value) => value !== ''))
    .map(({ key, values }) => ({
      key, operator: 'In' as const, values
    }));
}

const NAME_EQUALITY = /^metadata\.name\s*==?\s*([^=~].*)$/;
const NAMESPACE_EQUALITY = /^metadata\.namespace\s*==?\s*([^=~].*)$/;

/**
 * The names a `filter=` of only `metadata.name=` terms (OR-ed) keeps, and the namespace a one-term
 * `metadata.namespace=` filter keeps: Steve's SQL cache answers those from indexed columns
 * (rancher/steve pkg/sqlcache/informer/listoption_indexer.go indexes metadata.name and
 * metadata.namespace for every type), so the emulator looks the objects up instead of reading
 * every one. The filter itself still decides.
 */
export function nameLookup(params: URLSearchParams): { names: string[]; namespace?: string } | undefined {
  const filters = params.getAll('filter').map(splitOr);
  const byName = filters.find((terms) => terms.length > 0 && terms.every((t) => NAME_EQUALITY.test(t)));

  if (!byName) {
    return undefined;
  }
  const inNamespace = filters.find((terms) => terms.length === 1 && NAMESPACE_EQUALITY.test(terms[0]));

  return {
    names:     [...new Set(byName.map((t) => unquote(NAME_EQUALITY.exec(t)![1])))],
    namespace: inNamespace ? unquote(NAMESPACE_EQUALITY.exec(inNamespace[0])![1]) : undefined,
  };
}

/** `projectsornamespaces=a,b` (or `!a,b` to exclude): namespaces, or projects by their namespaces' label. */
export function namespacePredicate(param: string | null, namespaces: KubeObject[]): ((o: KubeObject) => boolean) | undefined {
  if (!param) {
    return undefined;
  }
  const exclude = param.startsWith('!');
  const names = new Set(param.replace(/^!/, '').split(',').map((s) => s.trim()).filter(Boolean));

  for (const ns of namespaces) {
    if (names.has(ns.metadata.labels?.['field.cattle.io/projectId'] ?? '')) {
      names.add(ns.metadata.name);
    }
  }

  return (o) => names.has(o.metadata.namespace ?? '') !== exclude;
}

const collator = new Intl.Collator(undefined, { numeric: true });

/** Sorted by `sort=a,-b` over the objects (or what `viewOf` gives of each). */
export function sortObjects<T>(items: T[], param: string | null, viewOf: (item: T) => unknown = (item) => item): T[] {
  if (!param) {
    return items;
  }
  const keys = param.split(',').map((k) => k.trim()).filter(Boolean).map((key) => ({ desc: key.startsWith('-'), path: key.replace(/^-/, '') }));
  const sortKeys = new Map(items.map((item) => [item, keys.map(({ path }) => text(valueAt(viewOf(item), path)))]));

  return items.slice().sort((a, b) => {
    const ka = sortKeys.get(a) ?? [];
    const kb = sortKeys.get(b) ?? [];

    for (let i = 0; i < keys.length; i++) {
      const desc = keys[i].desc;
      const cmp = collator.compare(ka[i], kb[i]);

      if (cmp) {
        return desc ? -cmp : cmp;
      }
    }

    return 0;
  });
}
