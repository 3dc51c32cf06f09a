// rancher/wrangler pkg/name/name.go SafeConcatName (v3): the parts joined by '-'; a name of 64
// characters or more is cut to 57 characters and '-' and 5 hex digits of its sha256, or, when
// the 57th character is not [a-z0-9], to 56 characters and '-' and 6 hex digits.

import { createHash } from 'crypto';

export function safeConcatName(...parts: string[]): string {
  const joined = parts.join('-');

  if (joined.length < 64) {
    return joined;
  }
  const digest = createHash('sha256').update(joined).digest('hex');

  return /[a-z0-9]/.test(joined[56]) ? `${ joined.slice(0, 57) }-${ digest.slice(0, 5) }` : `${ joined.slice(0, 56) }-${ digest.slice(0, 6) }`;
}
