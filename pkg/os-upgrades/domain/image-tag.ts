// How the real code reads an image reference and compares its tag:
// - elemental-operator controllers/managedosimage_controller.go getImageVersion: the tag is
//   what follows the first ':' after the registry part (the part before the first '/'), and
//   `latest` when there is none; the Plan's `version` is that tag.
// - elemental framework/files/usr/sbin/suc-upgrade isHigherVersion: two tags of one
//   IMAGE_REPO are compared with `sort -V` (GNU version sort, not semver). IMAGE_REPO comes from
//   each image's own /etc/os-release, written at build time without a registry
//   (.obs/dockerfile/SL-Micro-base-container/Dockerfile: `suse/sl-micro/<v>/base-os-container`),
//   so the registry an image was pulled from never counts.

export interface ImageParts {
  /** The image without its tag (suc-upgrade's IMAGE_REPO). */
  repo: string;
  /** The tag, `latest` when the reference has none (IMAGE_TAG and the Plan's version). */
  tag: string;
}

/** Splits `registry/path/name:tag` as getImageVersion does. */
export function imageParts(image: string): ImageParts {
  const parts = image.split('/');
  const registry = parts.length > 1 ? parts.shift() as string : '';
  const remainder = parts.join('/');
  const colon = remainder.indexOf(':');
  const name = colon < 0 ? remainder : remainder.slice(0, colon);
  const tag = colon < 0 ? 'latest' : remainder.slice(colon + 1);

  return { repo: registry ? `${ registry }/${ name }` : name, tag };
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** The weight of one character outside a digit run: `~` before the end, letters before other signs. */
function order(text: string, i: number): number {
  if (i >= text.length) {
    return 0;
  }
  const code = text.charCodeAt(i);

  if (isDigit(code)) {
    return 0;
  }
  if (isLetter(code)) {
    return code;
  }

  return code === 126 ? -1 : code + 256;
}

/**
 * `sort -V` order of two tags (negative when `a` sorts first): runs of non-digits compared
 * character by character, runs of digits compared as numbers, as GNU's filevercmp does for
 * names without a file suffix. Ties of equal value (`01` and `1`) fall back to the text.
 */
export function compareSortV(a: string, b: string): number {
  let i = 0;
  let j = 0;

  while (i < a.length || j < b.length) {
    while ((i < a.length && !isDigit(a.charCodeAt(i))) || (j < b.length && !isDigit(b.charCodeAt(j)))) {
      const diff = order(a, i) - order(b, j);

      if (diff !== 0) {
        return diff < 0 ? -1 : 1;
      }
      i++;
      j++;
    }
    while (a[i] === '0') {
      i++;
    }
    while (b[j] === '0') {
      j++;
    }
    let first = 0;

    while (i < a.length && j < b.length && isDigit(a.charCodeAt(i)) && isDigit(b.charCodeAt(j))) {
      if (!first) {
        first = a.charCodeAt(i) - b.charCodeAt(j);
      }
      i++;
      j++;
    }
    if (i < a.length && isDigit(a.charCodeAt(i))) {
      return 1;
    }
    if (j < b.length && isDigit(b.charCodeAt(j))) {
      return -1;
    }
    if (first) {
      return first < 0 ? -1 : 1;
    }
  }

  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * The repository without its registry: the first part is a registry when it holds a '.' or
 * ':' or is `localhost` (distribution/reference's rule).
 */
export function repositoryPath(repo: string): string {
  const [first, ...rest] = repo.split('/');

  return rest.length && (/[.:]/.test(first) || first === 'localhost') ? rest.join('/') : repo;
}

/**
 * Whether two references can carry one IMAGE_REPO: the same path after the registry, or one
 * path ending in the other (a proxy cache that puts a project in front: `harbor/proxy/suse/…`).
 * Taking two repositories for one only ever adds a FORCE that suc-upgrade would not need, as
 * it upgrades to another repository anyway; the other mistake skips a roll back silently.
 */
export function sameImageRepo(a: string, b: string): boolean {
  const x = repositoryPath(a);
  const y = repositoryPath(b);

  return x === y || x.endsWith(`/${ y }`) || y.endsWith(`/${ x }`);
}

/**
 * What suc-upgrade decides without FORCE for an image replacing the host's: true when the
 * image's tag is higher (or the repositories differ, or the host's tag is unknown).
 */
export function isHigherImage(host: ImageParts, image: ImageParts): boolean {
  if (!sameImageRepo(host.repo, image.repo) || !host.tag) {
    return true;
  }
  if (host.tag === image.tag) {
    return false;
  }

  return compareSortV(image.tag, host.tag) > 0;
}
