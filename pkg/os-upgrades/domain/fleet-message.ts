// Fleet's Ready message in words. Fleet writes it in rancher/fleet
// internal/cmd/controller/summary/summary.go (ReadyMessage): for each state with a count, the
// first non-ready resource of that state as `State(count) [Kind name]` or
// `State(count) [Kind name: message]`, followed by up to four of that resource's
// ModifiedStatus / NonReadyStatus strings (pkg/apis/fleet.cattle.io/v1alpha1: `kind[.group]
// [namespace/]name missing|extra|modified <patch>`, or the resource and its summary), all
// sorted and joined with "; ". The Elemental operator copies the bundle's Ready condition into
// the ManagedOSImage's status.
import type { Reason } from './types';

const FLEET = 'osUpgrades.fleetMessage';

/** Fleet's bundle states (fleet.cattle.io/v1alpha1 BundleState) that ReadyMessage names. */
export const FLEET_STATES = ['WaitApplied', 'NotReady', 'ErrApplied', 'OutOfSync', 'Pending', 'Modified'] as const;

export interface FleetMessagePart {
  /** The part in words. */
  reason: Reason;
  /** What Fleet said about that resource, as it said it ('' when nothing). */
  detail: string;
  /** The part as Fleet wrote it. */
  raw: string;
}

const STATE_PART = /^(\w+)\((\d+)\) \[(\w+) ([^\s:\]]+)(?:: ([\s\S]*))?\]$/;
const RESOURCE_PART = /^(\S+ \S+) (missing|extra|modified)(?: ([\s\S]*))?$/;
const UNCLOSED = /^\w+\(\d+\) \[[^\]]*$/;

/** Splits on "; " between parts, never inside a `[...]` whose message itself holds "; ". */
function splitParts(message: string): string[] {
  const parts: string[] = [];

  for (const piece of message.split('; ')) {
    const last = parts.length - 1;

    if (last >= 0 && UNCLOSED.test(parts[last])) {
      parts[last] = `${ parts[last] }; ${ piece }`;
    } else {
      parts.push(piece);
    }
  }

  return parts.filter((part) => part.trim() !== '');
}

function readPart(raw: string): FleetMessagePart {
  const state = STATE_PART.exec(raw);

  if (state && (FLEET_STATES as readonly string[]).includes(state[1]) && state[3] === 'Cluster') {
    return {
      reason: { key: `${ FLEET }.state.${ state[1] }`, values: { count: Number(state[2]), name: state[4] } },
      detail: state[5] ?? '',
      raw,
    };
  }
  const resource = RESOURCE_PART.exec(raw);

  if (resource) {
    return {
      reason: { key: `${ FLEET }.resource.${ resource[2] }`, values: { resource: resource[1] } }, detail: resource[3] ?? '', raw
    };
  }

  return {
    reason: { key: `${ FLEET }.text`, values: { text: raw } }, detail: '', raw
  };
}

/**
 * Fleet's Ready message as parts in words, in Fleet's order. A part this does not recognise
 * is kept as its text (key `osUpgrades.fleetMessage.text`), so nothing Fleet said is lost.
 */
export function readFleetMessage(message: string): FleetMessagePart[] {
  return splitParts(message.trim()).map(readPart);
}
