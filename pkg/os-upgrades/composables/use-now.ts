import { ref, Ref } from 'vue';
import { useInterval } from '@shell/composables/useInterval';

export const MINUTE_MS = 60 * 1000;

/** The time in unix seconds, brought up to date every `everyMs` while the component is mounted. */
export function useNow(everyMs = MINUTE_MS): Ref<number> {
  const now = ref(Date.now() / 1000);

  useInterval(() => {
    now.value = Date.now() / 1000;
  }, everyMs);

  return now;
}
