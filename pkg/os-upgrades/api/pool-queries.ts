// The pools pinned to one version, found the way the Elemental operator finds them: it labels each
// pool with the name of the version it pins at every reconcile (elemental-operator
// controllers/managedosimage_controller.go, ElementalManagedOSImageVersionNameLabel) and lists the
// pools of a version by that label (controllers/managedosversion_controller.go). Steve indexes
// labels (docs/shell-queries.md), so this is one filtered request instead of every pool.
import { FilterArgs, PaginationParamFilter } from '@shell/types/store/pagination.types';
import { TYPE } from '../config';
import { OPERATOR_VERSION_LABEL } from '../domain';
import type { ShellStore } from '../types/shell-store';
import { poolPagingEnabled } from './pool-pages';
import { FindPageResult, findPageAt, toPage } from './version-queries';

/**
 * The pools of `namespace` labelled as pinning version `name` (the shell's models of them). The
 * label follows the pin once the operator has reconciled it: callers still check the pin itself.
 */
export async function poolsLabelledWithVersion(store: ShellStore, namespace: string, name: string): Promise<unknown[]> {
  const labelSelector = { matchLabels: { [OPERATOR_VERSION_LABEL]: name } };

  if (!poolPagingEnabled(store)) {
    // A shell that does not page pools: the label selector through the store, unwatched.
    return toPage(await store.dispatch('management/findLabelSelector', {
      type: TYPE.IMAGE, matching: { namespace, labelSelector }, opt: { transient: true }
    }) as FindPageResult).items;
  }
  const filters = [PaginationParamFilter.createSingleField({ field: 'metadata.namespace', value: namespace }) as PaginationParamFilter];

  return toPage(await findPageAt(store, new FilterArgs({ filters, labelSelector }), undefined, TYPE.IMAGE)).items;
}
