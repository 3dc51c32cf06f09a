import type { OSVersion } from '../../../domain';

export const LONG_IMAGE = 'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12';
export const SHORT_IMAGE = 'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.9';

export function osVersion(name: string, image: string): OSVersion {
  return {
    name, namespace: 'fleet-default', channel: 'sl-micro', version: name, type: 'container', displayName: name, image, platforms: [], inSync: true
  };
}

/** The shell's prefs getter, as the date pickers read it. */
export const prefsStore = { getters: { 'prefs/get': () => undefined } };
