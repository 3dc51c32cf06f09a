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

/** One pool of a promotion chain, as the chains panel shows it. */
export interface ChainStep {
  id: string;
  name: string;
  pin: string;
  /** `offered`, `waiting` or `none` (the first pool of a chain). */
  offer: string;
  /** The image offered or soaking, '' when none. */
  offerVersion: string;
  withdrawn: boolean;
}

/** The promotion chains (`namespace/name` ids, domain promotionChains) with what each pool's row says. */
export function chainSteps(chains: string[][], rows: FleetRow[]): ChainStep[][] {
  const byId = new Map(rows.map((row) => [row.id, row]));

  return chains.map((chain) => chain.map((id) => {
    const row = byId.get(id);
    const offer = row?.offer;

    return {
      id,
      name:         row?.name ?? id,
      pin:          row?.exposure.pinName ?? '',
      offer:        offer?.status ?? 'none',
      offerVersion: offer?.version && offer.version.name !== row?.exposure.pinName ? offer.version.name : '',
      withdrawn:    !!row?.withdrawn,
    };
  }));
}
