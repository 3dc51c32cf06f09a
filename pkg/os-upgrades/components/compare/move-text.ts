import { describeImageMove, OSVersion, Reason } from '../../domain';

/**
 * How a move that is more than an upgrade is named (l10n references), or undefined for a plain
 * upgrade or downgrade in one channel: "Switch from base to kvm", "Move to SL Micro 6.2",
 * "Switch to channel …". A flavour switch is named first, a release second.
 */
export function moveHeadline(from: OSVersion, to: OSVersion): Reason | undefined {
  const move = describeImageMove(from, to);

  if (move.flavourSwitch) {
    return { key: 'osUpgrades.move.flavour', values: { from: move.from.flavour, to: move.to.flavour } };
  }
  if (move.releaseMove) {
    return { key: 'osUpgrades.move.release', values: { release: move.to.release } };
  }
  if (move.crossChannel) {
    return { key: 'osUpgrades.move.channel', values: { from: from.channel, to: to.channel } };
  }

  return undefined;
}
