// A Kubernetes metav1.LabelSelector (matchLabels and matchExpressions with In, NotIn, Exists,
// DoesNotExist), as the system-upgrade-controller applies a Plan's spec.nodeSelector to nodes
// (pkg/upgrade/plan/plan.go SelectConcurrentNodes). No selector selects every node; an
// unreadable one selects none.
import { asText, isRecord } from './text';

export function matchesLabelSelector(selector: unknown, labels: Record<string, string>): boolean {
  if (selector === undefined || selector === null) {
    return true;
  }
  if (!isRecord(selector)) {
    return false;
  }
  const matchLabels = isRecord(selector.matchLabels) ? selector.matchLabels : {};

  for (const [key, value] of Object.entries(matchLabels)) {
    if (labels[key] !== asText(value)) {
      return false;
    }
  }
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];

  return expressions.every((expression) => {
    if (!isRecord(expression)) {
      return false;
    }
    const key = asText(expression.key);
    const values = Array.isArray(expression.values) ? expression.values.map(asText) : [];
    const has = Object.prototype.hasOwnProperty.call(labels, key);

    switch (asText(expression.operator)) {
    case 'In':
      return has && values.includes(labels[key]);
    case 'NotIn':
      return !has || !values.includes(labels[key]);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return false;
    }
  });
}
