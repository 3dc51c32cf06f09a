// Kubernetes label selectors: the string form of list/watch requests (`a=b,c!=d,e in (x,y),!f`)
// and the object form of specs (`{ matchLabels, matchExpressions }`).
// Sources: k8s.io/apimachinery pkg/labels selector.go (Parse: =, ==, !=, in, notin, exists, !key)
// and pkg/apis/meta/v1 helpers.go LabelSelectorAsSelector (matchLabels ANDed with matchExpressions;
// an empty selector matches everything). A missing one reads as empty here, where the real helper
// matches nothing; no caller differs, as the operator writes `{}` for a pool without nodeSelector
// (elemental-operator controllers/managedosimage_controller.go newFleetBundleResources).

import { asObject, asString, asStringMap } from '../core/json';
import { badRequest } from './errors';

interface Requirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values: string[];
}

export type LabelSelector = Requirement[];

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';

  for (const ch of text) {
    if (ch === '(') {
      depth++;
    } else if (ch === ')') {
      depth--;
    }
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);

  return parts.map((p) => p.trim()).filter(Boolean);
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Parses the string form; throws a 400 on syntax errors and invalid values as the API server does. */
export function parseLabelSelector(text: string | null | undefined): LabelSelector {
  if (!text || !text.trim()) {
    return [];
  }
  const requirements = splitTopLevel(text).map(parseRequirement);

  for (const req of requirements) {
    const bad = req.values.find((v) => v.length > 63 || !LABEL_VALUE.test(v));

    if (bad !== undefined) {
      throw badRequest(`unable to parse requirement: values[0][${ req.key }]: Invalid value: "${ bad }": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
    }
  }

  return requirements;
}

function parseRequirement(part: string): Requirement {
  let match = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);

  if (match) {
    return {
      key:      match[1],
      operator: match[2] === 'in' ? 'In' : 'NotIn',
      values:   match[3].split(',').map((v) => v.trim()).filter(Boolean),
    };
  }
  match = /^([^\s!=]+)\s*(==|=|!=)\s*([^\s,]*)$/.exec(part);
  if (match) {
    return {
      key: match[1], operator: match[2] === '!=' ? 'NotIn' : 'In', values: [match[3]]
    };
  }
  match = /^!\s*([^\s!=]+)$/.exec(part);
  if (match) {
    return {
      key: match[1], operator: 'DoesNotExist', values: []
    };
  }
  match = /^([^\s!=()]+)$/.exec(part);
  if (match) {
    return {
      key: match[1], operator: 'Exists', values: []
    };
  }
  throw badRequest(`unable to parse requirement: ${ part }`);
}

/** The object form (`matchLabels`, `matchExpressions`); an empty selector matches everything. */
export function selectorFromObject(value: unknown): LabelSelector {
  const selector = asObject(value);
  const out: LabelSelector = Object.entries(asStringMap(selector.matchLabels)).map(([key, v]) => ({
    key, operator: 'In', values: [v]
  }));

  for (const expression of Array.isArray(selector.matchExpressions) ? selector.matchExpressions : []) {
    const expr = asObject(expression);
    const operator = asString(expr.operator);
    const key = asString(expr.key);

    if (key && (operator === 'In' || operator === 'NotIn' || operator === 'Exists' || operator === 'DoesNotExist')) {
      out.push({
        key, operator, values: Array.isArray(expr.values) ? expr.values.filter((v): v is string => typeof v === 'string') : []
      });
    }
  }

  return out;
}

export function matchesLabels(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  const have = labels ?? {};

  return selector.every((req) => {
    const present = Object.prototype.hasOwnProperty.call(have, req.key);

    switch (req.operator) {
    case 'In':
      return present && req.values.includes(have[req.key]);
    case 'NotIn':
      return !present || !req.values.includes(have[req.key]);
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    }

    return false;
  });
}
