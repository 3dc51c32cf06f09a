/* global jest */
import { reactive, watch } from 'vue';
import { VERSION_PAGINATION } from '../../api/version-pagination';
import { POOL_FORM_TABS } from '../../domain';
import type { OSVersion } from '../../domain';
import { TYPE } from '../../config';

/** A ManagedOSVersion object as the API returns it, for an OSVersion of the test data. */
export function managedVersion(v: OSVersion): Record<string, unknown> {
  return {
    metadata: {
      name:        v.name,
      namespace:   v.namespace,
      labels:      { 'elemental.cattle.io/channel': v.channel },
      annotations: v.inSync ? {} : { 'elemental.cattle.io/channel-no-longer-in-sync': 'true' },
    },
    spec: {
      version:  v.version,
      type:     v.type,
      metadata: {
        upgradeImage: v.image, displayName: v.displayName, created: v.created, platforms: v.platforms
      },
    },
  };
}

export interface Written {
  url: string;
  method: string;
  data: {
    metadata: { name: string; namespace: string; resourceVersion?: string; annotations?: Record<string, string> };
    spec: Record<string, unknown>;
  };
}

export interface StoreOptions {
  pools?: Record<string, unknown>[];
  versions?: OSVersion[];
  clusters?: Record<string, unknown>[];
  groups?: Record<string, unknown>[];
  canWrite?: boolean;
  /** Namespaces where the user may write pools (default: all, or none when canWrite is false). */
  writableNamespaces?: string[];
  /** The server's answer to a write (default: the object written). */
  respond?: (written: Written) => Promise<unknown>;
}

/**
 * A fake of the shell's store: reactive lists (as the management store's watch keeps them),
 * schemas with or without write methods, the logged-in user, and every write recorded.
 */
export function fakeStore(options: StoreOptions = {}) {
  const writableIn = (namespace: string) => options.canWrite !== false && (!options.writableNamespaces || options.writableNamespaces.includes(namespace));
  // Steve's per-object links: update/remove/patch only where the user may (formatter.go).
  const withLinks = (pool: Record<string, unknown>) => {
    const metadata = (pool.metadata ?? {}) as { namespace?: string; name?: string };
    const self = `/v1/${ TYPE.IMAGE }s/${ metadata.namespace }/${ metadata.name }`;

    return {
      ...pool,
      links: writableIn(metadata.namespace ?? '') ? {
        self, update: self, remove: self, patch: self
      } : { self },
    };
  };
  const lists: Record<string, unknown[]> = {
    [TYPE.IMAGE]:         reactive((options.pools ?? []).map(withLinks)),
    [TYPE.VERSION]:       reactive((options.versions ?? []).map(managedVersion)),
    [TYPE.FLEET_CLUSTER]: reactive([...(options.clusters ?? [])]),
    [TYPE.FLEET_GROUP]:   reactive([...(options.groups ?? [])]),
  };
  const writes: Written[] = [];
  const respond = options.respond ?? ((written: Written) => Promise.resolve(written.data));
  // The SQL-cache API for versions (findPage) and its resource.changes watch (watchEvent), as the
  // shell's store and Steve answer them: a change to the list calls every listener with a revision.
  const listeners: ((params: { revision?: string }) => void)[] = [];
  let revision = 1;

  watch(lists[TYPE.VERSION], () => {
    revision++;
    listeners.forEach((listener) => listener({ revision: String(revision) }));
  }, { deep: true });
  const dispatch = jest.fn((action: string, payload: { type?: string; id?: string; opt?: { pagination?: FakePagination }; callback?: (params: { revision?: string }) => void } & Written) => {
    switch (action) {
    case 'management/findAll':
      return Promise.resolve(lists[payload.type ?? ''] ?? []);
    case 'management/findPage': {
      const data = lists[payload.type ?? ''].filter((o) => matchesPagination(o, payload.opt?.pagination));

      return Promise.resolve({ data, pagination: { result: { count: data.length, revision: String(revision) } } });
    }
    case 'management/watchEvent':
      if (payload.callback) {
        listeners.push(payload.callback);
      }

      return Promise.resolve();
    case 'management/unwatchEvent':
      return Promise.resolve();
    case 'management/find':
      return Promise.resolve(lists[TYPE.IMAGE].find((o) => {
        const metadata = (o as { metadata: { namespace: string; name: string } }).metadata;

        return `${ metadata.namespace }/${ metadata.name }` === payload.id;
      }));
    case 'management/request':
      if (payload.url.startsWith('/v1/namespaces?checkPermissions=')) {
        // Steve's checkPermissions answer on the namespace list.
        return Promise.resolve({ data: ['fleet-default', 'fleet-local'].map((name) => ({ metadata: { name }, resourcePermissions: { [TYPE.IMAGE]: writableIn(name) ? { create: '/x', get: '/x' } : { get: '/x' } } })) });
      }
      if (!payload.method && payload.url.startsWith('/v1/')) {
        // A list read for the package alone (api/resources.ts listOwn): Steve's collection.
        return Promise.resolve({ data: lists[payload.url.slice(4).replace(/s\?.*$/, '')] ?? [] });
      }
      writes.push(payload);

      return respond(payload);
    default:
      return Promise.reject(new Error(`unexpected ${ action }`));
    }
  });
  const schema = options.canWrite === false ? { resourceMethods: ['GET'], collectionMethods: ['GET'] } : { resourceMethods: ['GET', 'PUT', 'DELETE'], collectionMethods: ['GET', 'POST'] };

  return {
    lists,
    writes,
    store: {
      dispatch,
      $extension: { getAll: () => ({ 'server-side-pagination': { 'os-upgrades': () => VERSION_PAGINATION } }) },
      getters:    {
        // The shell's getter (plugins/dashboard-store/getters.js), true for the type this package enables.
        'management/paginationEnabled':         (args?: { id?: string }) => args?.id === TYPE.VERSION,
        'management/byId':                      () => undefined,
        'type-map/configuredHeaders':           () => false,
        'type-map/configuredPaginationHeaders': () => false,
        'type-map/hasCustomList':               () => false,
        'management/schemaFor':                 () => schema,
        'auth/user':                            { username: 'admin' },
        'auth/principalId':                     'local://u-admin',
        'i18n/t':                               (key: string) => key,
        'i18n/exists':                          () => false,
        // The date-format and time-format preferences unset: the shell's defaults.
        'prefs/get':                            () => undefined,
      },
    },
  };
}

/** `t` that shows its values, so tests can see what a message says. */
export function t(key: string, values?: Record<string, unknown>): string {
  return values ? `${ key } ${ JSON.stringify(values) }` : key;
}

/** Stubs for the shell components that need the whole dashboard around them. */
export const shellStubs = {
  RouterLink:    { props: ['to'], template: '<a class="router-link"><slot /></a>' },
  Loading:       { template: '<div class="loading" />' },
  Banner:        { props: ['label', 'color'], template: '<div class="banner" :data-color="color">{{ label }}<slot /></div>' },
  SortableTable: {
    props:    ['rows', 'headers'],
    template: `<table><tbody><tr v-for="row in rows" :key="row.id" class="pool-row" :data-id="row.id">
      <td v-for="h in headers" :key="h.name"><slot :name="'cell:' + h.name" :row="row">{{ row[h.name] }}</slot></td>
      <td><slot name="row-actions" :row="row" /></td>
    </tr></tbody></table>`,
  },
  ActionMenu:  { props: ['customActions'], template: '<div class="action-menu" />' },
  AppModal:    { template: '<div class="modal" role="dialog"><slot /></div>' },
  AsyncButton: {
    props:    ['actionLabel', 'disabled', 'componentTestid'],
    emits:    ['click'],
    template: '<button class="async-button" :data-testid="componentTestid + \'-async-button\'" :disabled="disabled" @click="$emit(\'click\', () => {})">{{ actionLabel }}</button>',
  },
  LabeledInput: {
    name:     'LabeledInput',
    props:    ['value', 'label', 'mode'],
    emits:    ['update:value'],
    template: '<input :value="value" :aria-label="label" :readonly="mode === \'view\'" @input="$emit(\'update:value\', $event.target.value)">',
  },
  LabeledSelect: {
    name:     'LabeledSelect',
    props:    ['value', 'label', 'options', 'mode', 'taggable'],
    emits:    ['update:value'],
    template: '<div class="labeled-select" :data-label="label">{{ value }}</div>',
  },
  Checkbox: {
    name:     'Checkbox',
    props:    ['value', 'label', 'mode'],
    emits:    ['update:value'],
    template: '<input type="checkbox" :checked="value" :aria-label="label" @change="$emit(\'update:value\', $event.target.checked)">',
  },
  RadioGroup: {
    name:     'RadioGroup',
    props:    ['value', 'options', 'mode'],
    emits:    ['update:value'],
    template: '<div class="radio-group">{{ value }}</div>',
  },
  KeyValue: {
    name: 'KeyValue', props: ['value', 'mode'], emits: ['update:value'], template: '<div class="key-value" />'
  },
  CodeMirror: {
    props:    ['value'],
    emits:    ['onInput'],
    template: '<div><pre class="yaml">{{ value }}</pre><textarea class="yaml-input" @input="$emit(\'onInput\', $event.target.value)" /></div>',
  },
  // Selects each of the pool form's tabs once, as a person opening them all would: each is drawn from then on.
  Tabbed: {
    emits: ['changed'],
    mounted(this: { $emit: (event: string, value: unknown) => void }) {
      POOL_FORM_TABS.forEach((name) => this.$emit('changed', { selectedName: name }));
    },
    template: '<div class="tabbed"><slot /></div>',
  },
  Tab:          { props: ['name', 'label', 'error'], template: '<section class="tab" :data-tab="name" :data-error="String(!!error)"><slot /></section>' },
  ImageCompare: { props: ['versions', 'oldName', 'newName'], template: '<div class="image-compare" :data-old="oldName" :data-new="newName" />' },
};

interface FakePagination {
  filters?: { fields: { field?: string; value?: string }[] }[];
  labelSelector?: { matchLabels?: Record<string, string> };
}

/** Whether an object passes the page's filters: every filter (AND) by any of its fields (OR), and the labels. */
function matchesPagination(object: unknown, pagination: FakePagination | undefined): boolean {
  const metadata = (object as { metadata: { name: string; namespace: string; labels?: Record<string, string> } }).metadata;
  const value = (field?: string) => (field === 'metadata.name' ? metadata.name : field === 'metadata.namespace' ? metadata.namespace : undefined);
  const filtersHold = (pagination?.filters ?? []).every((filter) => filter.fields.some((f) => value(f.field) === f.value));
  const labelsHold = Object.entries(pagination?.labelSelector?.matchLabels ?? {}).every(([key, wanted]) => metadata.labels?.[key] === wanted);

  return filtersHold && labelsHold;
}
