import { onBeforeUnmount } from 'vue';
import { LatestLoad } from './latest-load';

/** A component's cancel-on-change load: a new `start` cancels the previous one; unmounting cancels the last. */
export function useLatestLoad(): LatestLoad {
  const latest = new LatestLoad();

  onBeforeUnmount(() => latest.abort());

  return latest;
}
