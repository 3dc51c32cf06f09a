// Stored objects by label, per type and namespace, as Steve's SQL cache keeps a `<type>_labels`
// table indexed on (label, value) and upserted after every add and update of its informer
// (rancher/steve pkg/sqlcache/informer/listoption_indexer.go: addLabels, createLabelsTableIndexFmt),
// and as client-go informers keep indexers (k8s.io/client-go tools/cache/index.go) so a list with
// `labelSelector=a=b` does not read every object of the type.

import { KubeObject, objectKey } from '../kube/store';

type ByNamespace = Map<string, Set<string>>;

function pair(key: string, value: string): string {
  return `${ key }=${ value }`;
}

export class LabelIndex {
  /** type → "key=value" → namespace ('' when cluster-scoped) → object keys. */
  private readonly types = new Map<string, Map<string, ByNamespace>>();

  add(type: string, object: KubeObject): void {
    let byPair = this.types.get(type);

    if (!byPair) {
      byPair = new Map();
      this.types.set(type, byPair);
    }
    const namespace = object.metadata.namespace ?? '';
    const key = objectKey(object.metadata.namespace, object.metadata.name);

    for (const [label, value] of Object.entries(object.metadata.labels ?? {})) {
      let byNamespace = byPair.get(pair(label, value));

      if (!byNamespace) {
        byNamespace = new Map();
        byPair.set(pair(label, value), byNamespace);
      }
      let keys = byNamespace.get(namespace);

      if (!keys) {
        keys = new Set();
        byNamespace.set(namespace, keys);
      }
      keys.add(key);
    }
  }

  remove(type: string, object: KubeObject): void {
    const byPair = this.types.get(type);
    const namespace = object.metadata.namespace ?? '';
    const key = objectKey(object.metadata.namespace, object.metadata.name);

    for (const [label, value] of Object.entries(object.metadata.labels ?? {})) {
      const byNamespace = byPair?.get(pair(label, value));
      const keys = byNamespace?.get(namespace);

      keys?.delete(key);
      if (keys && !keys.size) {
        byNamespace?.delete(namespace);
      }
      if (byNamespace && !byNamespace.size) {
        byPair?.delete(pair(label, value));
      }
    }
  }

  /** Keys of the objects labelled `key=value`, in one namespace or (without one) in all. */
  keys(type: string, label: string, value: string, namespace?: string): string[] {
    const byNamespace = this.types.get(type)?.get(pair(label, value));

    if (!byNamespace) {
      return [];
    }
    if (namespace !== undefined) {
      return [...(byNamespace.get(namespace) ?? [])];
    }

    return [...byNamespace.values()].flatMap((keys) => [...keys]);
  }
}
