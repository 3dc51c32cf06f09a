// Which pools run an image: a pool runs the image it is pinned to (spec.managedOSVersionName, in
// its own namespace; pkg/os-upgrades/domain/README.md rule "Pool writes"). A raw spec.osImage wins over the
// pin in the operator (elemental-operator controllers/managedosimage_controller.go getImageVersion), so such a
// pool runs no channel image.
import { readPool } from './pool';

/** The names of the pools pinned to the image `name` of `namespace`, sorted. */
export function poolsPinnedTo(pools: readonly unknown[], namespace: string, name: string): string[] {
  return pools.map(readPool)
    .filter((pool) => pool.namespace === namespace && pool.pin === name && !pool.osImage)
    .map((pool) => pool.name)
    .sort();
}
