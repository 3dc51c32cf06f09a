// The other kinds of request the browser makes (tests/conformance/coverage.ts lists them from the
// emulator's request log of a test run): the shell's findAll of each type the pages read
// (`pagesize=100000&exclude=metadata.managedFields`), its find by id, its creates on a namespace's
// path, its paginated pools list and the re-list from a revision, the counts and schemas, and one
// watch of each type the pages subscribe to, in each mode and from each type's own list revision.
import { resourceVersionAs, revisionAs } from './answers';
import {
  Comparison, RequestStep, SCENARIO_LABEL, Scenario, Step
} from '../scenario';

const NAME = 'browser-requests';
const NS = 'fleet-default';
const ALL = 'pagesize=100000&exclude=metadata.managedFields';
const IMAGES = '/v1/elemental.cattle.io.managedosimages';
const CHANNELS = '/v1/elemental.cattle.io.managedosversionchannels';
const VERSIONS = '/v1/elemental.cattle.io.managedosversions';
const METADATA = '/v1/elemental.cattle.io.metadata';
const BUNDLES = '/v1/fleet.cattle.io.bundles';
const CLUSTERS = '/v1/fleet.cattle.io.clusters';
const CHANNEL = 'conf-b-channel';
const VERSION = 'conf-b-v1';
const POOL = 'conf-b-pool';
const BUNDLE = 'conf-b-bundle';
const CHANNEL_LABEL = 'elemental.cattle.io/channel';

const labels = (more: Record<string, string> = {}) => ({ [SCENARIO_LABEL]: NAME, ...more });
const metadata = (name: string, more: Record<string, string> = {}) => ({
  name, namespace: NS, labels: labels(more)
});

function get(path: string, compare: Comparison, learn?: RequestStep['learn'], settleMs?: number): RequestStep {
  return {
    compare,
    settleMs,
    ...(learn ? { learn } : {}),
    request: {
      user: 'admin', method: 'GET', path
    }
  };
}

function post(path: string, body: Record<string, unknown>): RequestStep {
  return {
    compare: 'object',
    request: {
      user: 'admin', method: 'POST', path, body
    }
  };
}

function patch(path: string, body: Record<string, unknown>): RequestStep {
  return {
    compare: 'object',
    request: {
      user: 'admin', method: 'PATCH', path, contentType: 'application/merge-patch+json', body
    },
  };
}

function remove(path: string): RequestStep {
  return {
    compare: 'status',
    request: {
      user: 'admin', method: 'DELETE', path
    }
  };
}

const channel = {
  type: 'elemental.cattle.io.managedosversionchannel', metadata: metadata(CHANNEL), spec: { type: 'custom', options: {} }
};
const version = {
  type:     'elemental.cattle.io.managedosversion',
  metadata: metadata(VERSION, { [CHANNEL_LABEL]: CHANNEL }),
  spec:     {
    version: 'v1.0.0', type: 'container', metadata: { upgradeImage: 'registry.example.test/os:v1.0.0' }
  },
};
// The operator labels a pool with the version it names (elemental-operator
// controllers/managedosimage_controller.go); no operator runs on the stack, so the scenario does.
const pool = {
  type:     'elemental.cattle.io.managedosimage',
  metadata: metadata(POOL, { 'elemental.cattle.io/managed-os-version-name': VERSION }),
  spec:     { managedOSVersionName: VERSION, clusterTargets: [] },
};
const operatorMetadata = {
  type: 'elemental.cattle.io.metadata', metadata: metadata('conf-b-metadata'), spec: {}
};
const bundle = {
  type: 'fleet.cattle.io.bundle', metadata: metadata(BUNDLE), spec: { resources: [], targets: [] }
};

const reads: Step[] = [
  // Steve's SQL cache sees the writes through its own watch: the first read waits for it.
  get(`${ IMAGES }/${ NS }/${ POOL }?exclude=metadata.managedFields`, 'object', undefined, 1500),
  get(`${ IMAGES }/${ NS }?labelSelector=elemental.cattle.io/managed-os-version-name=${ VERSION }&${ ALL }`, 'list'),
  get(IMAGES, 'scenario-items'),
  get(`${ IMAGES }?${ ALL }`, 'scenario-items'),
  get(`${ IMAGES }?pagesize=100000&filter=metadata.namespace="${ NS }"&filter=metadata.labels[elemental.cattle.io/managed-os-version-name] IN (${ VERSION })&exclude=metadata.managedFields`, 'list'),
  get(`${ IMAGES }?page=1&pagesize=50&sort=metadata.name,metadata.namespace&exclude=metadata.managedFields`, 'scenario-items', revisionAs('images')),
  get(`${ IMAGES }?page=1&pagesize=50&sort=metadata.name,metadata.namespace&exclude=metadata.managedFields&revision={name:images}`, 'scenario-items'),
  get(CHANNELS, 'scenario-items'),
  get(`${ CHANNELS }?${ ALL }&exclude=metadata.relationships`, 'scenario-items', revisionAs('channels')),
  get(`${ CHANNELS }/${ NS }/${ CHANNEL }?exclude=metadata.managedFields`, 'object'),
  get(`${ CHANNELS }/${ NS }/${ CHANNEL }`, 'object', resourceVersionAs('channelVersion')),
  get(`${ VERSIONS }/${ NS }/${ VERSION }`, 'object'),
  get(`${ VERSIONS }/${ NS }?labelSelector=${ encodeURIComponent(`${ CHANNEL_LABEL }=${ CHANNEL }`) }`, 'list'),
  get(`${ VERSIONS }/${ NS }?labelSelector=${ CHANNEL_LABEL }=${ CHANNEL }&${ ALL }`, 'list'),
  get(`${ VERSIONS }/${ NS }?summary=metadata.labels%5B${ encodeURIComponent(CHANNEL_LABEL) }%5D&summaryonly=true`, 'status'),
  get(`${ VERSIONS }?${ ALL }`, 'scenario-items', revisionAs('versions')),
  get(`${ VERSIONS }?pagesize=100000&filter=metadata.namespace="${ NS }"&filter=metadata.labels[${ CHANNEL_LABEL }] IN (${ CHANNEL })&exclude=metadata.managedFields`, 'list'),
  get(`${ VERSIONS }?pagesize=100000&filter=metadata.namespace="${ NS }"&filter=metadata.labels[${ CHANNEL_LABEL }] IN (${ CHANNEL })&exclude=metadata.managedFields&revision={name:versions}`, 'list'),
  get(`${ VERSIONS }?pagesize=100000&filter=metadata.namespace="${ NS }"&filter=metadata.name="${ VERSION }"&exclude=metadata.managedFields`, 'list'),
  get(`${ METADATA }/${ NS }/conf-b-metadata?exclude=metadata.managedFields`, 'object', revisionAs('metadata')),
  get(`${ BUNDLES }/${ NS }`, 'scenario-items'),
  get(`${ BUNDLES }/${ NS }/${ BUNDLE }`, 'object'),
  get(`${ BUNDLES }?${ ALL }`, 'scenario-items', revisionAs('bundles')),
  get(`${ BUNDLES }?pagesize=100000&filter=metadata.namespace="${ NS }"&filter=metadata.name="${ BUNDLE }"&exclude=metadata.managedFields`, 'list'),
  get(`${ BUNDLES }?pagesize=100000&filter=metadata.namespace="${ NS }"&filter=metadata.name~"conf-b-bun"&exclude=metadata.managedFields`, 'list'),
  // Fleet's clusters are Rancher's (the stack's are scripts/real-stack/fleet-setup.sh's, the
  // emulator's its seed's): the answer's status is compared, the rest recorded.
  get(`${ CLUSTERS }/${ NS }`, 'status'),
  get(`${ CLUSTERS }/${ NS }/edge-berlin-01`, 'status'),
  get(`${ CLUSTERS }?${ ALL }`, 'status'),
  get(`/v1/fleet.cattle.io.clustergroups?${ ALL }`, 'status', revisionAs('clustergroups')),
  get(`/v1/namespaces?${ ALL }`, 'status', revisionAs('namespaces')),
  get('/v1/namespaces?exclude=metadata.managedFields', 'status'),
  get(`/v1/counts?${ ALL }`, 'status', revisionAs('counts')),
  get('/v1/counts?exclude=metadata.managedFields', 'status'),
  get(`/v1/schemas?${ ALL }`, 'schema-ids'),
  get('/v1/schemas?exclude=metadata.managedFields', 'schema-ids'),
];

export const browserRequests: Scenario = {
  name:  NAME,
  about: 'The kinds of request the browser makes that the other scenarios do not: the shell\'s findAll and find of each type the pages read, creates on a namespace\'s path, the pools list\'s pages and re-list from a revision, counts, schemas, and a watch of each type in each mode',
  needs: ['fleet'],
  steps: [
    // Fleet's Clusters, watched before anything is written: a write makes real Fleet update the
    // status of its clusters, which the emulator's seed clusters do not show.
    get(`${ CLUSTERS }?${ ALL }`, 'status', revisionAs('clusters')),
    {
      watch:     { user: 'admin', subscribe: [{ resourceType: 'fleet.cattle.io.cluster', resourceVersion: '{name:clusters}' }] },
      during:    [],
      collectMs: 500,
    },
    post(`${ CHANNELS }/${ NS }`, channel),
    post(`${ VERSIONS }/${ NS }`, version),
    post(`${ IMAGES }/${ NS }`, pool),
    post(METADATA, operatorMetadata),
    post(BUNDLES, bundle),
    ...reads,
    {
      watch: {
        user:      'admin',
        subscribe: [
          { resourceType: 'elemental.cattle.io.managedosimage', resourceVersion: '{name:images}' },
          {
            resourceType: 'elemental.cattle.io.managedosimage', resourceVersion: '{name:images}', selector: `elemental.cattle.io/managed-os-version-name=${ VERSION }`
          },
          {
            resourceType: 'elemental.cattle.io.managedosimage', mode: 'resource.changes', debounceMs: 100
          },
          {
            resourceType: 'elemental.cattle.io.managedosversionchannel', mode: 'resource.changes', debounceMs: 100
          },
          {
            resourceType: 'elemental.cattle.io.metadata', namespace: NS, id: 'conf-b-metadata', resourceVersion: '{name:metadata}'
          },
          { resourceType: 'fleet.cattle.io.bundle', resourceVersion: '{name:bundles}' },
          {
            resourceType: 'fleet.cattle.io.bundle', mode: 'resource.changes', debounceMs: 100
          },
          { resourceType: 'fleet.cattle.io.clustergroup', resourceVersion: '{name:clustergroups}' },
          { resourceType: 'namespace', resourceVersion: '{name:namespaces}' },
          { resourceType: 'count', resourceVersion: '{name:counts}' },
        ],
      },
      during: [
        patch(`${ IMAGES }/${ NS }/${ POOL }`, { metadata: { labels: { step: 'patched' } } }),
        patch(`${ METADATA }/${ NS }/conf-b-metadata`, { metadata: { labels: { step: 'patched' } } }),
        patch(`${ BUNDLES }/${ NS }/${ BUNDLE }`, { metadata: { labels: { step: 'patched' } } }),
        {
          compare: 'object',
          request: {
            user:   'admin',
            method: 'PUT',
            path:   `${ CHANNELS }/${ NS }/${ CHANNEL }`,
            body:   { ...channel, metadata: { ...metadata(CHANNEL, { step: 'put' }), resourceVersion: '{name:channelVersion}' } },
          },
        },
      ],
      collectMs: 2000,
    },
    // The shell's paginated lists re-watch from their revision in resource.changes mode, and stop a watch they no longer need.
    {
      watch: {
        user:      'admin',
        subscribe: [
          {
            resourceType: 'elemental.cattle.io.managedosimage', mode: 'resource.changes', debounceMs: 100, resourceVersion: '{name:images}'
          },
          {
            resourceType: 'fleet.cattle.io.bundle', mode: 'resource.changes', debounceMs: 100, resourceVersion: '{name:bundles}'
          },
          {
            resourceType: 'elemental.cattle.io.managedosversion', mode: 'resource.changes', debounceMs: 100, resourceVersion: '{name:versions}'
          },
          {
            resourceType: 'elemental.cattle.io.managedosversion', mode: 'resource.changes', debounceMs: 100, resourceVersion: '{name:versions}', stop: true
          },
        ],
        messageGapMs: 500,
      },
      during:    [],
      collectMs: 1000,
    },
    // A watch the shell opens without a revision (its list gave none, or its revision was too old) and
    // the channels' resource.changes from their list's revision: which of these a run makes depends on timing.
    {
      watch: {
        user:      'admin',
        subscribe: [
          { resourceType: 'elemental.cattle.io.managedosimage' },
          { resourceType: 'elemental.cattle.io.managedosversion' },
          { resourceType: 'elemental.cattle.io.managedosversion', selector: `${ CHANNEL_LABEL }=${ CHANNEL }` },
          {
            resourceType: 'elemental.cattle.io.managedosversionchannel', mode: 'resource.changes', debounceMs: 100, resourceVersion: '{name:channels}'
          },
          { resourceType: 'fleet.cattle.io.bundle' },
          { resourceType: 'fleet.cattle.io.cluster' },
        ],
        messageGapMs: 500,
      },
      during:    [],
      collectMs: 1000,
    },
    remove(`${ IMAGES }/${ NS }/${ POOL }`),
    remove(`${ VERSIONS }/${ NS }/${ VERSION }`),
    remove(`${ CHANNELS }/${ NS }/${ CHANNEL }`),
    remove(`${ METADATA }/${ NS }/conf-b-metadata`),
    remove(`${ BUNDLES }/${ NS }/${ BUNDLE }`),
  ],
};
