// The names the specs share: the Steve types of the objects the extension reads and writes, the
// namespace and channel of the emulator's seed (tests/fixtures/elemental, tests/emulator/rancher/seed.ts),
// and the extension's pages (give them to dashboardPath()).

/** A pool is an Elemental ManagedOSImage. */
export const POOL_TYPE = 'elemental.cattle.io.managedosimage';
export const CHANNEL_TYPE = 'elemental.cattle.io.managedosversionchannel';
export const VERSION_TYPE = 'elemental.cattle.io.managedosversion';
export const CHANGELOG_TYPE = 'elemental.cattle.io.managedoschangelog';

/**
 * Where the seed keeps its channels and pools (Fleet's default workspace). Specs that also write
 * on a real Rancher use env.ts's TEST_NAMESPACE instead.
 */
export const NS = 'fleet-default';
/** The seed's main channel (tests/fixtures/elemental/channels/sl-micro-6.1-base.json), which most pools follow. */
export const BASE_CHANNEL = 'sl-micro-6.1-base';

export const PRODUCT = '/os-upgrades/c/_';
export const POOLS = `${ PRODUCT }/pools`;
export const CHANNELS = `${ PRODUCT }/channels`;
export const FLEET = `${ PRODUCT }/fleet`;
export const SOURCES = `${ PRODUCT }/sources`;
/** The page of the seed's main channel. */
export const BASE_CHANNEL_PAGE = `${ CHANNELS }/${ NS }/${ BASE_CHANNEL }`;

/** The extension's annotations (pkg/os-upgrades/domain/keys.ts): a pool's image selector, a channel's withdrawn images. */
export const SELECTOR_ANNOTATION = 'os-upgrades.cattle.io/image-selector';
export const WITHDRAWN_ANNOTATION = 'os-upgrades.cattle.io/withdrawn';
