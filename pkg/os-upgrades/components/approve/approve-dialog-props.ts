import type { PropType } from 'vue';
import type { FleetCluster, FleetGroup, OSVersion } from '../../domain';

/** The approve dialog's props: declared once for the dialog and for the wrapper that loads it when first opened. */
export const APPROVE_DIALOG_PROPS = {
  versions: {
    type:     Array as PropType<OSVersion[]>,
    required: true,
  },
  /** Unix seconds. */
  now: {
    type:     Number,
    required: true,
  },
  approvedBy: {
    type:     String,
    required: true,
  },
  /** Fleet clusters and groups, for the impact summary (empty when unreadable). */
  clusters: {
    type:    Array as PropType<FleetCluster[]>,
    default: () => [],
  },
  groups: {
    type:    Array as PropType<FleetGroup[]>,
    default: () => [],
  },
  /** Where focus goes when the dialog closes (the control that opened it may be gone after approving). */
  returnFocusSelector: {
    type:    String,
    default: '',
  },
} as const;
