// Where a pool form's draft, or a dialog's text (domain/text-draft.ts), waits while its person
// logs in again: this tab's sessionStorage, which survives the shell's full reload at logout and
// is gone when the tab is closed.

/** `pool`: the pool form's; `text`: a dialog's or the sources page's. */
export type DraftSlot = 'pool' | 'text';

const KEYS: Record<DraftSlot, string> = { pool: 'os-upgrades.pool-form-draft', text: 'os-upgrades.text-draft' };

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function storeDraft(draft: unknown, slot: DraftSlot = 'pool'): boolean {
  try {
    storage()?.setItem(KEYS[slot], JSON.stringify(draft));

    return !!storage();
  } catch {
    return false;
  }
}

/** The stored draft as parsed JSON (unchecked: the domain's readDraft decides), or undefined. */
export function storedDraft(slot: DraftSlot = 'pool'): unknown {
  try {
    const text = storage()?.getItem(KEYS[slot]);

    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export function clearDraft(slot: DraftSlot = 'pool'): void {
  try {
    storage()?.removeItem(KEYS[slot]);
  } catch {
    // Nothing to clear.
  }
}
