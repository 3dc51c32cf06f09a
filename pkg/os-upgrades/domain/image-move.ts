import type { OSVersion } from './types';
import { compareNewestFirst } from './channel';

/** What an image is a build of: its flavour (`base`, `kvm`, `rt`…) and release (`6.1`). */
export interface ImageLine {
  /** '' when the image reference does not say. */
  flavour: string;
  /** '' when neither the image reference nor the display name says. */
  release: string;
}

/**
 * What moving a pool from one image to another is: an upgrade or downgrade in one channel,
 * or a switch of channel, of flavour (`base` → `kvm`), of release (SL Micro 6.1 → 6.2).
 */
export interface ImageMove {
  direction: 'upgrade' | 'downgrade' | 'same';
  crossChannel: boolean;
  flavourSwitch: boolean;
  releaseMove: boolean;
  from: ImageLine;
  to: ImageLine;
}

/**
 * Flavour and release from the image reference, as the SL Micro images name them:
 * `registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12` is flavour `base`,
 * release `6.1` (rancher/elemental-channels `channels/*.json`). The release falls back to
 * a word `N.N` of the display name (`SL Micro Base 6.1 OS`, not `OS v2.2.1`).
 */
export function imageLine(version: Pick<OSVersion, 'image' | 'displayName'>): ImageLine {
  const path = (version.image || '').split('@')[0].replace(/:[^/]*$/, '').split('/');
  const repository = path[path.length - 1] ?? '';
  const flavour = /^(.+?)-(?:os|iso)-(?:container|image)$/.exec(repository)?.[1] ?? '';
  const release = path.slice(0, -1).reverse().find((part) => /^\d+\.\d+$/.test(part)) ??
    /(?:^|\s)(\d+\.\d+)(?=\s|$)/.exec(version.displayName || '')?.[1] ?? '';

  return { flavour, release };
}

/** Describes `from` → `to` (see ImageMove); a flavour or release only counts when both sides say it. */
export function describeImageMove(from: OSVersion, to: OSVersion): ImageMove {
  const order = from === to ? 0 : compareNewestFirst(from, to);
  const fromLine = imageLine(from);
  const toLine = imageLine(to);

  return {
    direction:     order > 0 ? 'upgrade' : order < 0 ? 'downgrade' : 'same',
    crossChannel:  from.channel !== to.channel || from.namespace !== to.namespace,
    flavourSwitch: !!fromLine.flavour && !!toLine.flavour && fromLine.flavour !== toLine.flavour,
    releaseMove:   !!fromLine.release && !!toLine.release && fromLine.release !== toLine.release,
    from:          fromLine,
    to:            toLine,
  };
}
