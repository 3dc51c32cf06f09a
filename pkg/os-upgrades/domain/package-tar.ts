// A tar of package lists, as rancher/elemental-channels publishes `channels/<channel>.packages.tar`:
// one `<version name>.packages` file per image (domain README rule "Package tars").

/** 64 MB: a real channel's tar (dozens of images, each a few hundred kB of list) is far below. */
export const MAX_PACKAGE_TAR_BYTES = 64 * 1024 * 1024;


/**
 * The version an entry of the tar is the package list of: the file name without folders and
 * without `.packages`; undefined for anything else (folders, other files, hidden files).
 */
export function packageTarEntryVersion(entryName: string, entryType = 'file'): string | undefined {
  if (entryType !== 'file') {
    return undefined;
  }
  const base = entryName.split('/').pop() ?? '';
  const match = /^([^.][^/]*)\.packages$/.exec(base);

  return match ? match[1] : undefined;
}
