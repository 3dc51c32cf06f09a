// Every store of this package, emptied when a person logs out or another logs in (stores/nav-hooks.ts):
// nothing one person read or typed (a pool form, a dialog, fetched changelogs) may be shown to the next.
import type { ShellStore } from '../types/shell-store';
import { draftOwnedBy, textDraftPathFor } from '../domain';
import { storedDraft } from '../api/drafts';
import { PAGE, pageRoute, poolEditRoute } from '../config';
import { useChangelogsStore } from './changelogs';
import { useChannelCountsStore } from './channel-counts';
import { useChannelListStore } from './channel-list';
import { useChannelVersionsStore } from './channel-versions';
import { useCompareStore } from './compare';
import { useImageSearchStore } from './image-search';
import { useNodeRolloutStore } from './node-rollout';
import { useOperatorStore } from './operator';
import { usePoolFormStore } from './pool-form';
import { usePoolApprovalStore } from './pool-approval';
import { usePoolPageStore } from './pool-page';
import { forgetPoolListPage } from './pool-list';
import { usePinnedVersionsStore } from './pinned-versions';
import { useSelectorDraftStore } from './selector-draft';
import { browserPath } from './text-drafts';
import { useWithdrawalStore } from './withdrawals';

/**
 * The shell logs out by itself when a session expires, also while a dialog is open: what was typed
 * there is kept for the person whose session it was, and given back as after a 401.
 */
export function keepOpenDialogTexts(principal: string | undefined): void {
  const path = browserPath();

  if (principal && path) {
    usePoolApprovalStore().keepTyped(principal, path);
    useWithdrawalStore().keepTyped(principal, path);
  }
}

export function resetStores(): void {
  usePoolApprovalStore().$reset();
  usePoolFormStore().$reset();
  useSelectorDraftStore().load();
  useCompareStore().$reset();
  // Its sockets read clusters with the last person's session.
  useNodeRolloutStore().reset();
  // The next person may not read the same channels: drop them and their watches.
  useChannelVersionsStore().reset();
  useChannelListStore().reset();
  usePoolPageStore().reset();
  forgetPoolListPage();
  usePinnedVersionsStore().reset();
  useChannelCountsStore().$reset();
  useImageSearchStore().$reset();
  // The next person may have other rights: may install, may read the operator's Metadata.
  useOperatorStore().$reset();
  // A new client too: it caches files, and the allowed origins are read again for the next person.
  useChangelogsStore().useClient(undefined);
}

/**
 * A save met 401 and kept its entries: after this person logs in again, take them back to the
 * form, which restores them (the shell itself lands on its home page).
 */
export function resumeDraft(shell: ShellStore, principal: string): void {
  const draft = storedDraft();
  const router = (shell as unknown as { $router?: { push: (to: object | string) => Promise<unknown>; currentRoute?: { value?: { name?: unknown } } } }).$router;

  if (!router) {
    return;
  }
  if (!draftOwnedBy(draft, principal, Date.now() / 1000)) {
    // A dialog's text: back to the page it was typed on, where opening the dialog again gives it back.
    const path = textDraftPathFor(storedDraft('text'), principal, Date.now() / 1000);

    if (path) {
      router.push(path).catch(() => undefined);
    }

    return;
  }
  const [namespace, name] = draft.poolId.split('/');
  const to = draft.poolId ? poolEditRoute({ namespace, name }) : pageRoute(PAGE.POOL_CREATE);

  if (router.currentRoute?.value?.name !== to.name) {
    router.push(to).catch(() => undefined);
  }
}
