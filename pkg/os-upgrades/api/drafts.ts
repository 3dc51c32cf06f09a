// Where a pool form's draft waits while its person logs in again: this tab's sessionStorage,
// which survives the shell's full reload at logout and is gone when the tab is closed.

const KEY = 'os-upgrades.pool-form-draft';

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function storeDraft(draft: unknown): boolean {
  try {
    storage()?.setItem(KEY, JSON.stringify(draft));

    return !!storage();
  } catch {
    return false;
  }
}

/** The stored draft as parsed JSON (unchecked: the domain's readDraft decides), or undefined. */
export function storedDraft(): unknown {
  try {
    const text = storage()?.getItem(KEY);

    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export function clearDraft(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // Nothing to clear.
  }
}
