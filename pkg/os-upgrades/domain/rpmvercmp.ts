/**
 * RPM's version comparison, ported from rpm's lib/rpmvercmp.c: strings are split into
 * alphabetic and numeric segments (anything else separates them); numeric beats alphabetic;
 * numbers compare without leading zeros; `~` sorts before everything (even the end of the
 * string), `^` after the end but before anything else. Returns -1, 0 or 1.
 */
export function rpmvercmp(a: string, b: string): number {
  if (a === b) {
    return 0;
  }
  let one = 0;
  let two = 0;

  while (one < a.length || two < b.length) {
    while (one < a.length && !isAlnum(a, one) && a[one] !== '~' && a[one] !== '^') {
      one++;
    }
    while (two < b.length && !isAlnum(b, two) && b[two] !== '~' && b[two] !== '^') {
      two++;
    }

    // The tilde separator sorts before everything else.
    if (a[one] === '~' || b[two] === '~') {
      if (a[one] !== '~') {
        return 1;
      }
      if (b[two] !== '~') {
        return -1;
      }
      one++;
      two++;
      continue;
    }

    // The caret is like the tilde, except that when one string ends, the other one is higher.
    if (a[one] === '^' || b[two] === '^') {
      if (one >= a.length) {
        return -1;
      }
      if (two >= b.length) {
        return 1;
      }
      if (a[one] !== '^') {
        return 1;
      }
      if (b[two] !== '^') {
        return -1;
      }
      one++;
      two++;
      continue;
    }

    if (!(one < a.length && two < b.length)) {
      break;
    }

    let end1 = one;
    let end2 = two;
    const isNumber = isDigit(a, one);

    if (isNumber) {
      while (end1 < a.length && isDigit(a, end1)) {
        end1++;
      }
      while (end2 < b.length && isDigit(b, end2)) {
        end2++;
      }
    } else {
      while (end1 < a.length && isAlpha(a, end1)) {
        end1++;
      }
      while (end2 < b.length && isAlpha(b, end2)) {
        end2++;
      }
    }

    // Segments of different kinds: numeric is newer than alphabetic.
    if (end2 === two) {
      return isNumber ? 1 : -1;
    }

    let segment1 = a.slice(one, end1);
    let segment2 = b.slice(two, end2);

    if (isNumber) {
      segment1 = segment1.replace(/^0+/, '');
      segment2 = segment2.replace(/^0+/, '');
      if (segment1.length !== segment2.length) {
        return segment1.length > segment2.length ? 1 : -1;
      }
    }
    if (segment1 !== segment2) {
      return segment1 < segment2 ? -1 : 1;
    }
    one = end1;
    two = end2;
  }

  // Every segment compared equal but the separators differed.
  if (one >= a.length && two >= b.length) {
    return 0;
  }

  return one >= a.length ? -1 : 1;
}

function isDigit(text: string, index: number): boolean {
  const code = text.charCodeAt(index);

  return code >= 48 && code <= 57;
}

function isAlpha(text: string, index: number): boolean {
  const code = text.charCodeAt(index);

  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isAlnum(text: string, index: number): boolean {
  return isDigit(text, index) || isAlpha(text, index);
}
