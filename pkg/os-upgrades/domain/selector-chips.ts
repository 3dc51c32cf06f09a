// A selector in words (pkg/os-upgrades/domain/README.md, rule "Selector"): one chip per field that is set,
// in the order a person reads them, e.g. "sl-micro-6.1-base · ~2.2 · x86_64 · soak 24 h".
import type { Reason } from './types';
import type { ImageSelector } from './selector';

const CHIP = 'osUpgrades.selector.chip';

export interface SelectorChip extends Reason {
  /** The selector field the chip says ('channel', 'version', …). */
  field: keyof ImageSelector;
}

function chip(field: keyof ImageSelector, name: string, values?: Record<string, unknown>): SelectorChip {
  return values ? {
    field, key: `${ CHIP }.${ name }`, values
  } : { field, key: `${ CHIP }.${ name }` };
}

/** `linux/x86_64` reads as `x86_64`: every Elemental image is Linux; another OS is named in full. */
function platformText(platform: string): string {
  return platform.startsWith('linux/') ? platform.slice('linux/'.length) : platform;
}

/**
 * The chips of a parsed selector (parseSelector): channel (or "any channel"), version range,
 * display name, platform, soak time, and "also out of sync" when set. Never empty.
 */
export function selectorChips(selector: ImageSelector): SelectorChip[] {
  const chips: SelectorChip[] = [
    selector.channel ? chip('channel', 'channel', { channel: selector.channel }) : chip('channel', 'anyChannel'),
  ];

  if (selector.version) {
    chips.push(chip('version', 'version', { range: selector.version }));
  }
  if (selector.displayName) {
    chips.push(chip('displayName', 'displayName', { name: selector.displayName }));
  }
  if (selector.platform) {
    chips.push(chip('platform', 'platform', { platform: platformText(selector.platform) }));
  }
  if (selector.minAgeHours !== undefined && selector.minAgeHours > 0) {
    chips.push(chip('minAgeHours', 'soak', { hours: selector.minAgeHours }));
  }
  if (selector.includeOutOfSync) {
    chips.push(chip('includeOutOfSync', 'outOfSync'));
  }

  return chips;
}
