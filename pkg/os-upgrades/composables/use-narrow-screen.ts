import { onBeforeUnmount, ref, Ref } from 'vue';

/**
 * Below the shell's desktop breakpoint (`--viewport-12`, 1281 px), where SortableTable hides the
 * columns marked `breakpoint: COLUMN_BREAKPOINTS.DESKTOP`: a page then shows their content elsewhere.
 */
export const NARROW_SCREEN = '(max-width: 1281px)';

/** Whether the window is narrower than the shell's desktop breakpoint, kept up to date while mounted. */
export function useNarrowScreen(): Ref<boolean> {
  const query = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(NARROW_SCREEN) : undefined;
  const narrow = ref(!!query?.matches);
  const follow = (event: MediaQueryListEvent) => {
    narrow.value = event.matches;
  };

  query?.addEventListener('change', follow);
  onBeforeUnmount(() => query?.removeEventListener('change', follow));

  return narrow;
}
