// The objects a fresh Rancher with the Elemental operator has: namespaces, settings, features, the
// local cluster, projects, users, fleet workspaces; plus one channel per channel file.

import { JsonObject } from '../core/json';
import { CHANGELOG_FILES_PATH, TAR_CHANNELS } from '../data/changelog-files';
import { CHANNEL_FILE_PATH } from '../operator/operator';
import { USERS, principalIdOf } from './users';

/** The extension's channel annotations (pkg/os-upgrades/api/changelog-url.ts, domain/package-tar.ts). */
export const CHANGELOG_URL_ANNOTATION = 'os-upgrades.cattle.io/changelog-url';
export const PACKAGES_TAR_ANNOTATION = 'os-upgrades.cattle.io/packages-tar-url';
/** The extension's record of withdrawn images (pkg/os-upgrades/domain/withdrawal.ts). */
export const WITHDRAWN_ANNOTATION = 'os-upgrades.cattle.io/withdrawn';

/**
 * The demo's withdrawn image (the production pool of tests/fixtures/synthetic/seed/pools.yaml runs
 * it). Kept on the channel, not on the version: the operator's sync replaces the labels and
 * annotations of the ManagedOSVersions it creates but never touches the channel's own metadata
 * (rancher/elemental-operator controllers/managedosversionchannel_controller.go,
 * createManagedOSVersions; operator.ts does the same), so the record survives every sync.
 */
export const SEED_WITHDRAWALS: Record<string, Record<string, { reason: string; by: string; at: string }>> = {
  'sl-micro-6.1-base': {
    'base-v2.2.0-3.8-os': {
      reason: 'Boot loop on nodes with Secure Boot enabled (bsc#1230000); move to base-v2.2.0-3.9-os or newer.', by: 'admin', at: '2025-03-03T09:00:00.000Z'
    },
  },
};

export const RANCHER_VERSION = 'v2.15.0';
export const KUBE_VERSION = {
  major:        '1',
  minor:        '33',
  gitVersion:   'v1.33.4+k3s1',
  gitCommit:    '0dc6c6d0e1fde0b4bfbb1a8a1a2ac9fb7a0a3c0b',
  gitTreeState: 'clean',
  buildDate:    '2025-08-13T00:00:00Z',
  goVersion:    'go1.24.5',
  compiler:     'gc',
  platform:     'linux/amd64',
};

const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'cattle-system', 'cattle-fleet-system', 'cattle-fleet-local-system', 'cattle-elemental-system', 'local'];
const FLEET_NAMESPACES = ['fleet-default', 'fleet-local'];

/** Settings the login page may read before anyone is logged in (Rancher's public settings). */
export const PUBLIC_SETTINGS = new Set([
  'first-login', 'ui-pl', 'ui-brand', 'ui-banners', 'ui-logo-light', 'ui-logo-dark', 'ui-primary-color', 'ui-link-color',
  'ui-favicon', 'ui-login-background-light', 'ui-login-background-dark', 'ui-banner-light', 'ui-banner-dark', 'ui-theme',
  'server-version', 'auth-user-info-max-age-seconds', 'ui-offline-preferred', 'ui-issues', 'ui-community-links',
  'ui-performance', 'ui-custom-links', 'password-min-length', 'auth-password-requirements-description',
]);

const SETTINGS: Record<string, [string, string]> = {
  // id: [value, default]
  'server-version':                           [RANCHER_VERSION, ''],
  'server-url':                               ['', ''],
  'first-login':                              ['false', 'true'],
  'eula-agreed':                              ['2025-01-01T00:00:00.000Z', ''],
  'telemetry-opt':                            ['out', 'prompt'],
  'ui-pl':                                    ['', 'rancher'],
  'ui-brand':                                 ['', ''],
  'ui-banners':                               ['{}', '{}'],
  'ui-issues':                                ['', ''],
  'ui-offline-preferred':                     ['', 'dynamic'],
  'ui-performance':                           ['', ''],
  'ui-custom-links':                          ['', ''],
  'ui-community-links':                       ['', 'true'],
  'ui-content-enabled':                       ['false', 'true'],
  'ui-default-landing':                       ['', 'vue'],
  'ui-dashboard-index':                       ['', 'https://releases.rancher.com/dashboard/latest/index.html'],
  'has-support':                              ['', 'false'],
  'hide-local-cluster':                       ['', 'false'],
  'system-namespaces':                        ['', SYSTEM_NAMESPACES.filter((n) => n !== 'default').join(',')],
  'password-min-length':                      ['', '12'],
  'kubeconfig-generate-token':                ['', 'true'],
  'auth-user-info-max-age-seconds':           ['', '3600'],
  'auth-user-session-ttl-minutes':            ['', '960'],
  'auth-user-session-idle-ttl-minutes':       ['', '960'],
  'cli-version':                              ['', 'v2.12.0'],
  'helm-version':                             ['', 'v2.16.8-rancher2'],
  'k3s-based-upgrader-uninstall-concurrency': ['', '5'],
};

/** [name, default, description] */
const FEATURES: [string, boolean, string][] = [
  ['multi-cluster-management', true, 'Multi-cluster provisioning and management of Kubernetes clusters.'],
  ['fleet', true, 'Install Fleet when starting Rancher'],
  ['rke2', true, 'Enable provisioning of RKE2'],
  ['provisioningv2', true, 'Enable cluster-api based provisioning framework'],
  ['embedded-cluster-api', true, 'Enable a Rancher-managed instance of cluster-api core controller'],
  ['harvester', true, 'Enable Harvester integration'],
  ['ui-sql-cache', true, 'Enable SQLite-backed caching to improve performance and provide additional UI sorting/filtering features.'],
  ['uiextension', true, 'Enable UI Extensions when starting Rancher'],
  ['continuous-delivery', true, 'Enable Fleet GitOps'],
  ['istio-virtual-service-ui', true, 'Enable UI to create Istio VirtualServices'],
  ['legacy', false, 'Enable legacy features'],
  ['token-hashing', false, 'Enable one way hashing of tokens'],
  ['unsupported-storage-drivers', false, 'Allows the use of types for storage providers and provisioners that are not enabled by default.'],
];

function meta(name: string, namespace?: string, extra: JsonObject = {}): JsonObject {
  return namespace ? {
    name, namespace, ...extra
  } : { name, ...extra };
}

export function baseObjects(options: { sqlCache: boolean; serverVersion?: string }): { type: string; object: JsonObject; status?: JsonObject }[] {
  const out: { type: string; object: JsonObject; status?: JsonObject }[] = [];
  const add = (type: string, object: JsonObject, status?: JsonObject) => out.push({
    type, object, status
  });

  for (const name of [...SYSTEM_NAMESPACES, ...FLEET_NAMESPACES]) {
    const labels: Record<string, string> = { 'kubernetes.io/metadata.name': name };

    if (name === 'default') {
      labels['field.cattle.io/projectId'] = 'p-dflt7';
    } else if (!FLEET_NAMESPACES.includes(name)) {
      labels['field.cattle.io/projectId'] = 'p-sys9q';
    }
    add('namespace', { metadata: meta(name, undefined, { labels, annotations: labels['field.cattle.io/projectId'] ? { 'field.cattle.io/projectId': `local:${ labels['field.cattle.io/projectId'] }` } : {} }) });
  }

  for (const [name, [setting, def]] of Object.entries(SETTINGS)) {
    const value = name === 'server-version' && options.serverVersion ? options.serverVersion : setting;

    add('management.cattle.io.setting', {
      metadata: meta(name), value, default: def, customized: false, source: ''
    });
  }

  for (const [name, def, description] of FEATURES) {
    // Turning a feature off sets spec.value, as an administrator does; the default stays.
    const value = name === 'ui-sql-cache' && !options.sqlCache ? false : null;

    add('management.cattle.io.feature', { metadata: meta(name), spec: { value } }, {
      default: def, dynamic: false, description, lockedValue: null
    });
  }

  add('management.cattle.io.cluster', {
    metadata: meta('local', undefined, { labels: { 'provider.cattle.io': 'k3s' } }),
    spec:     {
      displayName: 'local', internal: true, fleetWorkspaceName: 'fleet-local', localClusterAuthEndpoint: { enabled: false }
    },
  }, {
    provider:    'k3s',
    driver:      'k3s',
    connected:   true,
    info:        { kubernetesVersion: KUBE_VERSION.gitVersion, arch: 'amd64' },
    version:     KUBE_VERSION,
    nodeCount:   1,
    allocatable: {
      cpu: '2', memory: '8029416Ki', pods: '110'
    },
    capacity: {
      cpu: '2', memory: '8029416Ki', pods: '110'
    },
    requested: {
      cpu: '1150m', memory: '1280Mi', pods: '24'
    },
    conditions: ['Ready', 'Provisioned', 'Updated', 'Connected', 'Waiting'].map((type) => ({
      type, status: 'True', lastUpdateTime: '2025-01-01T00:00:00Z'
    })),
  });

  add('provisioning.cattle.io.cluster', {
    metadata: meta('local', 'fleet-local', { labels: { 'provider.cattle.io': 'k3s' } }),
    spec:     { kubernetesVersion: KUBE_VERSION.gitVersion, localClusterAuthEndpoint: {} },
  }, {
    clusterName: 'local', ready: true, fleetWorkspaceName: 'fleet-local', conditions: [{ type: 'Ready', status: 'True' }]
  });

  for (const [id, displayName] of [['p-dflt7', 'Default'], ['p-sys9q', 'System']]) {
    add('management.cattle.io.project', { metadata: meta(id, 'local'), spec: { clusterName: 'local', displayName } }, { conditions: [{ type: 'InitialRolesPopulated', status: 'True' }] });
  }

  for (const user of USERS) {
    add('management.cattle.io.user', {
      metadata:           meta(user.id, undefined, { labels: { 'cattle.io/creator': 'norman' } }),
      username:           user.username,
      displayName:        user.displayName,
      description:        user.displayName,
      principalIds:       [principalIdOf(user)],
      mustChangePassword: false,
      enabled:            true,
    });
  }

  for (const name of FLEET_NAMESPACES) {
    add('management.cattle.io.fleetworkspace', { metadata: meta(name) });
  }

  add('fleet.cattle.io.cluster', {
    metadata: meta('local', 'fleet-local', {
      labels: {
        name: 'local', 'management.cattle.io/cluster-name': 'local', 'provider.cattle.io': 'k3s'
      }
    }),
    spec: { kubeConfigSecret: 'local-kubeconfig', agentNamespace: 'cattle-fleet-local-system' },
  }, { display: { readyBundles: '1/1', readyNodes: '1/1' }, summary: { desiredReady: 1, ready: 1 } });

  return out;
}

/**
 * The channel object for a channel file served by the emulator at `origin`. Its changelogs come
 * from the emulator's file host (changelog-files.ts) through the channel annotations, as an
 * administrator would set them; one channel also names a package tar. With `custom`, the channel
 * is of type custom with an image named after the file, as real Elemental channels are (the
 * ManagedOSChangelog controller of PR #891 needs `spec.options.image`).
 */
export function channelObject(name: string, origin: string, custom = false): JsonObject {
  const annotations: Record<string, string> = { [CHANGELOG_URL_ANNOTATION]: `${ CHANGELOG_FILES_PATH }{name}.updates.log` };

  if (TAR_CHANNELS.has(name)) {
    annotations[PACKAGES_TAR_ANNOTATION] = `${ CHANGELOG_FILES_PATH }${ encodeURIComponent(name) }.packages.tar`;
  }
  if (SEED_WITHDRAWALS[name]) {
    annotations[WITHDRAWN_ANNOTATION] = JSON.stringify(SEED_WITHDRAWALS[name]);
  }
  const options = custom ? { image: `registry.suse.com/rancher/elemental-channel/${ name }:latest` } : { uri: `${ origin }${ CHANNEL_FILE_PATH }${ encodeURIComponent(name) }.json` };

  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSVersionChannel',
    metadata:   {
      name, namespace: 'fleet-default', annotations
    },
    spec: {
      type: custom ? 'custom' : 'json', enabled: true, syncInterval: '1h', options
    },
  };
}
