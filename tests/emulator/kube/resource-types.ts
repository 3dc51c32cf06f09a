// The stored types and their Steve names (rancher/steve pkg/schema), with CRD schemas from rancher/elemental-operator .obs/chartfile/crds.
import { JsonObject } from '../core/json';
import { ErrorSubject } from './errors';

/** A Kubernetes resource type the emulator stores, named as Steve and the dashboard name it. */
export interface ResourceType extends ErrorSubject {
  /** Steve's type id, e.g. `elemental.cattle.io.managedosimage`, `namespace`. */
  id: string;
  version: string;
  namespaced: boolean;
  /** With a status subresource, writes to the object keep the stored status. */
  statusSubresource: boolean;
  /** The CRD's openAPIV3Schema, when writes are validated. */
  openApiSchema?: JsonObject;
  /** Steve's table columns (schema attributes.columns). */
  columns?: { name: string; field: string; type: string; format?: string }[];
}

export function apiVersionOf(type: ResourceType): string {
  return type.group ? `${ type.group }/${ type.version }` : type.version;
}

export const ELEMENTAL_GROUP = 'elemental.cattle.io';

/**
 * Steve's plural id of a type, its schema's pluralName and the path of its collection: the group and
 * the resource's plural (`elemental.cattle.io.managedosimages`, `elemental.cattle.io.metadata`,
 * `namespaces`), not the id with an s (rancher/steve pkg/schema/converter/k8stonorman.go gvrToPluralName).
 */
export function stevePluralName(type: Pick<ResourceType, 'group' | 'plural'>): string {
  return type.group ? `${ type.group }.${ type.plural }` : type.plural;
}

// Steve's default table columns; metadata.fields of each object holds their values.
const COLUMNS = [
  {
    name: 'Name', field: '$.metadata.name', type: 'string', format: 'name'
  },
  {
    name: 'Age', field: '$.metadata.creationTimestamp', type: 'date'
  },
];

function stored(id: string, group: string, version: string, kind: string, plural: string, namespaced: boolean, statusSubresource = false): ResourceType {
  return {
    id, group, version, kind, plural, namespaced, statusSubresource
  };
}

/** Every stored type. The elemental ones get their CRD schema attached by `attachCrdSchemas`. */
export function builtinTypes(): ResourceType[] {
  return [
    stored('elemental.cattle.io.managedosversionchannel', ELEMENTAL_GROUP, 'v1beta1', 'ManagedOSVersionChannel', 'managedosversionchannels', true, true),
    stored('elemental.cattle.io.managedosversion', ELEMENTAL_GROUP, 'v1beta1', 'ManagedOSVersion', 'managedosversions', true, true),
    stored('elemental.cattle.io.managedosimage', ELEMENTAL_GROUP, 'v1beta1', 'ManagedOSImage', 'managedosimages', true, true),
    // The operator chart's own record of its version (api/v1beta1/metadata_type.go).
    stored('elemental.cattle.io.metadata', ELEMENTAL_GROUP, 'v1beta1', 'Metadata', 'metadata', true, true),
    // Rancher's Apps: whoever may create one may install the operator's charts.
    stored('catalog.cattle.io.app', 'catalog.cattle.io', 'v1', 'App', 'apps', true, true),
    stored('fleet.cattle.io.cluster', 'fleet.cattle.io', 'v1alpha1', 'Cluster', 'clusters', true, true),
    stored('fleet.cattle.io.clustergroup', 'fleet.cattle.io', 'v1alpha1', 'ClusterGroup', 'clustergroups', true, true),
    stored('fleet.cattle.io.bundle', 'fleet.cattle.io', 'v1alpha1', 'Bundle', 'bundles', true, true),
    stored('fleet.cattle.io.bundledeployment', 'fleet.cattle.io', 'v1alpha1', 'BundleDeployment', 'bundledeployments', true, true),
    stored('namespace', '', 'v1', 'Namespace', 'namespaces', false, true),
    stored('management.cattle.io.setting', 'management.cattle.io', 'v3', 'Setting', 'settings', false),
    stored('management.cattle.io.feature', 'management.cattle.io', 'v3', 'Feature', 'features', false, true),
    stored('management.cattle.io.cluster', 'management.cattle.io', 'v3', 'Cluster', 'clusters', false, true),
    stored('management.cattle.io.project', 'management.cattle.io', 'v3', 'Project', 'projects', true, true),
    stored('management.cattle.io.user', 'management.cattle.io', 'v3', 'User', 'users', false),
    stored('management.cattle.io.fleetworkspace', 'management.cattle.io', 'v3', 'FleetWorkspace', 'fleetworkspaces', false, true),
    stored('provisioning.cattle.io.cluster', 'provisioning.cattle.io', 'v1', 'Cluster', 'clusters', true, true),
  ].map((type) => ({ ...type, columns: COLUMNS }));
}

export class TypeRegistry {
  private readonly byId = new Map<string, ResourceType>();
  /** API groups whose CRDs are not installed: stored here, never served (elemental-install.ts). */
  readonly unservedGroups = new Set<string>();

  constructor(types: ResourceType[]) {
    for (const type of types) {
      this.byId.set(type.id, type);
    }
  }

  /** A type that exists only in some modes (ManagedOSChangelog, see changelog-crd.ts). */
  add(type: ResourceType): void {
    this.byId.set(type.id, type);
  }

  remove(id: string): void {
    this.byId.delete(id);
  }

  all(): ResourceType[] {
    return [...this.byId.values()];
  }

  /** The types the API serves: what Steve and the Kubernetes API know. */
  served(): ResourceType[] {
    return this.all().filter((t) => !this.unservedGroups.has(t.group ?? ''));
  }

  private servedType(type: ResourceType | undefined): ResourceType | undefined {
    return type && !this.unservedGroups.has(type.group ?? '') ? type : undefined;
  }

  get(id: string): ResourceType | undefined {
    return this.byId.get(id);
  }

  /** Steve accepts a type by its id or plural id (`…managedosimage` or `…managedosimages`; `…metadata` alone: stevePluralName). */
  fromSteveName(name: string): ResourceType | undefined {
    const exact = this.byId.get(name);

    if (exact) {
      return this.servedType(exact);
    }
    const plural = name.endsWith('s') ? this.byId.get(name.slice(0, -1)) : undefined;

    return plural && stevePluralName(plural) === name ? this.servedType(plural) : undefined;
  }

  /** The type served at /apis/<group>/<version>/…/<plural> (group '' for /api/v1). */
  fromKubePath(group: string, version: string, plural: string): ResourceType | undefined {
    return this.served().find((t) => t.group === group && t.version === version && t.plural === plural);
  }

  require(id: string): ResourceType {
    const type = this.byId.get(id);

    if (!type) {
      throw new Error(`unknown resource type ${ id }`);
    }

    return type;
  }
}
