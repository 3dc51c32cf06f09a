import { samePersonContent } from './operator-state';
import { isRecord } from './text';

export function poolId(obj: unknown): string {
  const metadata = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : {};

  return `${ metadata.namespace ?? '' }/${ metadata.name ?? '' }`;
}

export function specOf(obj: unknown): Record<string, unknown> {
  return isRecord(obj) && isRecord(obj.spec) ? obj.spec : {};
}

/**
 * True when two reads of a pool differ at most in status, bookkeeping (resourceVersion,
 * managedFields…) and the label the operator writes itself at each pin change: a 409 between
 * them is retried (see samePersonContent in the domain).
 */
export function sameContent(a: unknown, b: unknown): boolean {
  return samePersonContent(a, b);
}
