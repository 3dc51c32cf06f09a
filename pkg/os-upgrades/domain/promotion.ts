// Promotion from a source pool after a soak (pkg/os-upgrades/domain/README.md, rule "Promotion").
import type { OSVersion, Reason } from './types';
import { compareNewestFirst, isContainerVersion, VersionInput } from './channel';
import { imageParts } from './image-tag';
import { readPool, versionsForPool } from './pool';
import { resolveSelector } from './selector';
import { asText, isRecord } from './text';
import { PROMOTE_FROM_ANNOTATION, PROMOTE_SOAK_HOURS_ANNOTATION } from './keys';

/** Soak time when the pool names a source but no soak. */
export const DEFAULT_SOAK_HOURS = 24;

/**
 * One targeted node of the source pool, as a rollout summary reports it (e.g. issue 14's
 * node rows): `state` `updated` means it runs the source's pinned image, since `since` (unix
 * seconds); `image`, when not '', names what it runs (version name, image reference or tag).
 */
export interface SoakNode {
  node: string;
  image: string;
  state: string;
  since?: number;
  failed?: boolean;
}

export interface PromotionConfig {
  /** `<namespace>/<name>` as written ('' when the pool names no source). */
  source: string;
  namespace: string;
  name: string;
  soakHours: number;
  /** Why the annotations cannot be used ([] when they can). */
  errors: Reason[];
}

export interface PromotionOffer {
  /** `offered`: `version` may be approved; `waiting`: see `missing`; `none`: the pool names no source. */
  status: 'offered' | 'waiting' | 'none';
  config: PromotionConfig;
  /** The source's pinned image, when known. */
  version?: OSVersion;
  /** Hours every node has run it without failure (the least of them), when known. */
  soakedHours?: number;
  /** What is missing before the offer ([] when offered). */
  missing: Reason[];
  /** Offered: the soak, shown as the reason of the approval. */
  reason?: Reason;
}

function message(name: string, values?: Record<string, unknown>): Reason {
  return values ? { key: `osUpgrades.promotion.missing.${ name }`, values } : { key: `osUpgrades.promotion.missing.${ name }` };
}

/** The promotion annotations of a pool. Never throws. */
export function readPromotion(pool: unknown): PromotionConfig {
  const metadata = isRecord(pool) && isRecord(pool.metadata) ? pool.metadata : {};
  const annotations = isRecord(metadata.annotations) ? metadata.annotations : {};
  const source = asText(annotations[PROMOTE_FROM_ANNOTATION]).trim();
  const soakText = asText(annotations[PROMOTE_SOAK_HOURS_ANNOTATION]).trim();
  const errors: Reason[] = [];
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(source);
  let soakHours = DEFAULT_SOAK_HOURS;

  if (source && !match) {
    errors.push(message('badSource', { value: source }));
  }
  if (soakText) {
    const hours = Number(soakText);

    if (!/^\d+(\.\d+)?$/.test(soakText) || !Number.isFinite(hours)) {
      errors.push(message('badSoakHours', { value: soakText }));
    } else {
      soakHours = hours;
    }
  }

  return {
    source, namespace: match?.[1] ?? '', name: match?.[2] ?? '', soakHours, errors
  };
}

/** Whether a node's reported image names the version (empty: not reported, the state decides). */
function runs(node: SoakNode, version: OSVersion): boolean {
  const image = asText(node.image).trim();

  if (!image) {
    return true;
  }

  return image === version.name || image === version.image || image === version.version ||
    (!!version.image && image === imageParts(version.image).tag);
}

function floorTenth(hours: number): number {
  return Math.floor(hours * 10) / 10;
}

/**
 * Rule "Promotion": the image pool `pool` may be promoted to from `source` at `now` (unix seconds): the
 * source's pinned image, once every targeted node of the source (`rollout`; undefined = not
 * known) has run it for the soak time without failure, when it is newer than the pool's pin,
 * not withdrawn, and passes the pool's own selector. Otherwise `missing` says what is missing.
 */
export function promotionOffer(pool: unknown, source: unknown, versions: readonly VersionInput[], rollout: readonly SoakNode[] | undefined | null, now: number): PromotionOffer {
  const config = readPromotion(pool);
  const result: PromotionOffer = {
    status: 'waiting', config, missing: []
  };

  if (!config.source && !config.errors.length) {
    return { ...result, status: 'none' };
  }
  if (config.errors.length) {
    return { ...result, missing: [...config.errors] };
  }
  const view = readPool(pool);
  const sourceView = readPool(source);

  if (!isRecord(source) || sourceView.namespace !== config.namespace || sourceView.name !== config.name) {
    return { ...result, missing: [message('sourceMissing', { source: config.source })] };
  }
  const usable = versionsForPool(versions, view.namespace);
  const sourcePin = sourceView.osImage ? '' : sourceView.pin ?? '';
  const version = sourcePin ? usable.find((candidate) => candidate.name === sourcePin && isContainerVersion(candidate)) : undefined;

  if (!version) {
    return { ...result, missing: [message('sourceNoImage', { source: config.source, name: sourcePin })] };
  }
  result.version = version;
  const missing: Reason[] = [];

  if (version.withdrawn) {
    missing.push(message('withdrawn', { name: version.name, reason: version.withdrawn.reason }));
  }
  if (version.terminating) {
    missing.push(message('terminating', { name: version.name }));
  }
  const pin = view.pin && !view.osImage ? usable.find((candidate) => candidate.name === view.pin && isContainerVersion(candidate)) : undefined;

  if (view.pin === version.name && !view.osImage) {
    missing.push(message('alreadyPinned', { name: version.name }));
  } else if (pin && compareNewestFirst(version, pin) >= 0) {
    missing.push(message('notNewer', { name: version.name, pin: pin.name }));
  }
  if (view.selectorText !== undefined) {
    if (!view.selector) {
      missing.push(message('selectorUnreadable'));
    } else {
      const resolution = resolveSelector(view.selector, usable, now);

      if (!resolution.candidates.some((candidate) => candidate.name === version.name)) {
        missing.push(message('selectorRejects', {
          name:    version.name,
          reasons: resolution.rejected.find((rejection) => rejection.version.name === version.name)?.reasons ?? [],
        }));
      }
    }
  }
  missing.push(...soakMissing(result, version, rollout, config.soakHours, now));
  result.missing = missing;
  if (!missing.length) {
    result.status = 'offered';
    result.reason = {
      key:    'osUpgrades.promotion.offered',
      values: {
        source: config.source, name: version.name, hours: result.soakedHours, soakHours: config.soakHours, nodes: (rollout ?? []).length
      },
    };
  }

  return result;
}

/** What the source's nodes still lack; sets `soakedHours` when it is known. */
function soakMissing(result: PromotionOffer, version: OSVersion, rollout: readonly SoakNode[] | undefined | null, soakHours: number, now: number): Reason[] {
  if (!Array.isArray(rollout)) {
    return [message('rolloutUnknown')];
  }
  const nodes = (rollout as readonly unknown[]).filter(isRecord) as unknown as SoakNode[];

  if (!nodes.length) {
    return [message('noNodes')];
  }
  const failed = nodes.filter((node) => node.failed === true || node.state === 'failed').length;

  if (failed) {
    return [message('nodesFailed', { count: failed })];
  }
  const notOnIt = nodes.filter((node) => node.state !== 'updated' || !runs(node, version)).length;

  if (notOnIt) {
    return [message('nodesNotUpdated', { count: notOnIt, total: nodes.length })];
  }
  if (!Number.isFinite(now) || nodes.some((node) => typeof node.since !== 'number' || !Number.isFinite(node.since))) {
    return [message('soakUnknown', { required: soakHours })];
  }
  const soaked = Math.max(0, (now - Math.max(...nodes.map((node) => node.since as number))) / 3600);

  result.soakedHours = floorTenth(soaked);

  return soaked < soakHours ? [message('soaking', { soaked: Math.floor(soaked), required: soakHours })] : [];
}
