import type {
  ImageDrift, ImageSpan, NodeRolloutSummary, PoolExposure, PromotionOffer, WithdrawnPin
} from '../../domain';

/** One pool of the fleet overview, as the exposure table shows it. */
export interface FleetRow {
  id: string;
  /** 1 = most exposed (domain/exposure.ts compareExposure). */
  rank: number;
  name: string;
  namespace: string;
  object: unknown;
  exposure: PoolExposure;
  offer?: PromotionOffer;
  withdrawn?: WithdrawnPin;
  /** Its pin now names another image than the one approved. */
  drift?: ImageDrift;
  spans: ImageSpan[];
  rollout: NodeRolloutSummary;
  writable: boolean;
}
