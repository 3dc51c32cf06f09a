// The domain core: pure functions for the rules of DESIGN.md section 3. See README.md.
export * from './types';
export * from './errors';
export * from './versions';
export * from './range';
export * from './channel';
export * from './selector';
export * from './pool';
export * from './pool-write';
export * from './updatelog';
export * from './changelog';
export * from './rpmvercmp';
export * from './packages';
export * from './package-diff-text';
export * from './rights';
export * from './channel-sync';
export * from './live-list';
