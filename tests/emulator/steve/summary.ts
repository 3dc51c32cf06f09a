// Steve's `metadata.state` of an object: wrangler's summarizers (rancher/wrangler
// pkg/summary/summarizers.go, run by summary.go's Summarize, called by rancher/steve
// pkg/summarycache and pkg/resources/common/formatter.go). The summarizers the emulator's types can
// reach are imitated in their order; the ones for kinds it never stores (Pods, Services, Norman
// objects, CAPI) are left out (docs/emulator.md lists that).

import { JsonObject, asObject, asString, isObject } from '../core/json';
import { KubeObject } from '../kube/store';

export interface ObjectState {
  name: string;
  error: boolean;
  transitioning: boolean;
  message: string;
}

interface Summary {
  state: string;
  error: boolean;
  transitioning: boolean;
  messages: string[];
}

interface Cond {
  type: string;
  status: string;
  reason: string;
  message: string;
}

// Condition type -> state while the condition is Unknown (transitioning); False is an error.
const TRANSITIONING_UNKNOWN: Record<string, string> = {
  Active:                      'activating',
  AddonDeploy:                 'provisioning',
  AgentDeployed:               'provisioning',
  BackingNamespaceCreated:     'configuring',
  Built:                       'building',
  CertsGenerated:              'provisioning',
  ConfigOK:                    'configuring',
  Created:                     'creating',
  CreatorMadeOwner:            'configuring',
  DefaultNamespaceAssigned:    'configuring',
  DefaultNetworkPolicyCreated: 'configuring',
  DefaultProjectCreated:       'configuring',
  DockerProvisioned:           'provisioning',
  Deployed:                    'deploying',
  Drained:                     'draining',
  Downloaded:                  'downloading',
  etcd:                        'provisioning',
  Inactive:                    'deactivating',
  Initialized:                 'initializing',
  Installed:                   'installing',
  NodesCreated:                'provisioning',
  Pending:                     'pending',
  PodScheduled:                'scheduling',
  Provisioned:                 'provisioning',
  Reconciled:                  'reconciling',
  Refreshed:                   'refreshed',
  Registered:                  'registering',
  Removed:                     'removing',
  Saved:                       'saving',
  Updated:                     'updating',
  Updating:                    'updating',
  Upgraded:                    'upgrading',
  Waiting:                     'waiting',
  InitialRolesPopulated:       'activating',
  ScalingActive:               'pending',
  AbleToScale:                 'pending',
  RunCompleted:                'running',
  Processed:                   'processed',
};

const REASON = '%REASON%';

// Condition type -> state while the condition is False (transitioning); Unknown is an error.
const TRANSITIONING_FALSE: Record<string, string> = {
  Completed: 'activating', Ready: 'unavailable', Available: 'updating', BootstrapReady: REASON, InfrastructureReady: REASON, NodeHealthy: REASON,
};

// Condition type -> state while the condition is True (transitioning).
const TRANSITIONING_TRUE: Record<string, string> = { Reconciling: 'reconciling' };

// Condition types (and statuses) that are errors: GVKConditionErrorMapping for the kinds it names,
// FallbackConditionErrorMapping for every other kind.
const GVK_ERROR_MAPPING: Record<string, Record<string, string[]>> = {
  'helm.cattle.io/v1, Kind=HelmChart': { JobCreated: [], Failed: ['True'] },
  'v1, Kind=Node':                     {
    MemoryPressure: ['True'], DiskPressure: ['True'], NetworkUnavailable: ['True']
  },
  'apps/v1, Kind=Deployment': {
    ReplicaFailure: ['True'], Stalled: ['True'], Progressing: ['False']
  },
};
const FALLBACK_ERROR_MAPPING: Record<string, string[]> = {
  OutOfDisk:          ['True'],
  MemoryPressure:     ['True'],
  DiskPressure:       ['True'],
  NetworkUnavailable: ['True'],
  Unschedulable:      ['True'],
  ReplicaFailure:     ['True'],
  Stalled:            ['True'],
  Failed:             ['True'],
};

function conditionsOf(object: JsonObject): Cond[] {
  const raw = asObject(object.status).conditions;

  return (Array.isArray(raw) ? raw.filter(isObject) : []).map((c) => ({
    type: asString(c.type) ?? '', status: asString(c.status) ?? '', reason: asString(c.reason) ?? '', message: asString(c.message) ?? ''
  }));
}

function checkStatusSummary(object: JsonObject, s: Summary): void {
  const status = asObject(object.status);
  let display = asObject(status.display);

  if (!Object.keys(display).length) {
    display = asObject(status.summary);
  }
  if ('state' in display) {
    s.state = asString(display.state) ?? '';
  }
  if ('transitioning' in display) {
    s.transitioning = display.transitioning === true;
  }
  if ('error' in display) {
    s.error = display.error === true;
  }
  if ('message' in display) {
    s.messages.push(asString(display.message) ?? '');
  }
}

function checkErrors(object: JsonObject, conditions: Cond[], s: Summary): void {
  const gvk = `${ asString(object.apiVersion) ?? '' }, Kind=${ asString(object.kind) ?? '' }`;
  const mapping = GVK_ERROR_MAPPING[gvk] ?? FALLBACK_ERROR_MAPPING;

  for (const c of conditions) {
    if (mapping[c.type]?.includes(c.status)) {
      s.error = true;
      s.messages.push(c.message);
      if (s.state === 'active' || s.state === '') {
        s.state = 'error';
      }
    }
  }
}

function checkTransitioning(conditions: Cond[], s: Summary): void {
  for (const c of conditions) {
    const state = TRANSITIONING_UNKNOWN[c.type];

    if (state === undefined) {
      continue;
    }
    if (c.status === 'False') {
      s.error = true;
      s.state = state;
      s.messages.push(c.message);
    } else if (c.status === 'Unknown' && s.state === '') {
      s.transitioning = true;
      s.state = state;
      s.messages.push(c.message);
    }
  }
  for (const c of conditions) {
    if (s.state !== '') {
      break;
    }
    const state = TRANSITIONING_TRUE[c.type];

    if (state !== undefined && c.status === 'True') {
      s.transitioning = true;
      s.state = state;
      s.messages.push(c.message);
    }
  }
  let ready = true;
  let readyMessage = '';

  for (const c of conditions) {
    if (s.state !== '') {
      break;
    }
    if (c.type === 'Ready' && c.status === 'False') {
      ready = false;
      readyMessage = c.message;
      continue;
    }
    let state = TRANSITIONING_FALSE[c.type];

    if (state === undefined) {
      continue;
    }
    if (state === REASON) {
      state = c.reason;
    }
    if (c.status === 'False') {
      s.transitioning = true;
      s.state = state;
      s.messages.push(c.message);
    } else if (c.status === 'Unknown') {
      s.error = true;
      s.state = state;
      s.messages.push(c.message);
    }
  }
  // Ready=False alone is "unavailable", transitioning: never an error, whatever its reason.
  if (s.state === '' && !ready) {
    s.transitioning = true;
    s.state = 'unavailable';
    s.messages.push(readyMessage);
  }
}

function checkActive(object: JsonObject, s: Summary): void {
  if (s.state !== '') {
    return;
  }
  const active = asObject(object.spec).active;

  if (active === true || active === 'true') {
    s.state = 'active';
  } else if (active === false || active === 'false') {
    s.state = 'inactive';
  }
}

function checkPhase(object: JsonObject, s: Summary): void {
  const phase = asString(asObject(object.status).phase) ?? '';

  if (phase === 'Succeeded') {
    s.state = 'succeeded';
    s.transitioning = false;
  } else if (phase === 'Bound') {
    s.state = 'bound';
    s.transitioning = false;
  } else if (phase !== '' && s.state === '') {
    s.state = phase;
  }
}

/**
 * kstatus.Compute's generic rules (sigs.k8s.io/cli-utils pkg/kstatus/status/generic.go) for the
 * kinds it has no special rules for, which is every kind the emulator stores except namespaces.
 */
function checkStandard(object: KubeObject, conditions: Cond[], s: Summary): void {
  if (s.state !== '') {
    return;
  }
  if (object.metadata.deletionTimestamp) {
    s.state = 'removing';
    s.transitioning = true;
    s.messages.push('Resource scheduled for deletion');

    return;
  }
  const observed = asObject(object.status).observedGeneration;
  const generation = object.metadata.generation;

  if (typeof observed === 'number' && typeof generation === 'number' && observed < generation) {
    s.state = 'in-progress';
    s.transitioning = true;
    s.messages.push(`${ object.kind } generation is ${ generation }, but latest observed generation is ${ observed }`);

    return;
  }
  const reconciling = conditions.find((c) => c.type === 'Reconciling' && c.status === 'True');

  if (reconciling) {
    s.state = 'in-progress';
    s.transitioning = true;
    s.messages.push(reconciling.message);

    return;
  }
  const stalled = conditions.find((c) => c.type === 'Stalled' && c.status === 'True');

  if (stalled) {
    s.state = 'failed';
    s.error = true;
    s.messages.push(stalled.message);

    return;
  }
  s.state = 'active';
  s.messages.push('Resource is current');
}

/** Steve's state of one object: name, error, transitioning and the messages joined with ":". */
export function summarize(object: KubeObject): ObjectState {
  const { messages, ...state } = summarizeWithMessages(object);

  return { ...state, message: messages.join(':') };
}

/** summarize() with the messages apart (a relationship joins them with "; "). */
export function summarizeWithMessages(object: KubeObject): Omit<ObjectState, 'message'> & { messages: string[] } {
  const data = object as unknown as JsonObject;
  const conditions = conditionsOf(data);
  const s: Summary = {
    state: '', error: false, transitioning: false, messages: []
  };

  checkStatusSummary(data, s);
  checkErrors(data, conditions, s);
  checkTransitioning(conditions, s);
  checkActive(data, s);
  checkPhase(data, s);
  checkStandard(object, conditions, s);
  const seen = new Set<string>();

  return {
    name:          (s.state || 'active').toLowerCase(),
    error:         s.error,
    transitioning: s.transitioning,
    messages:      s.messages.map((m) => m.trim()).filter((m) => m && !seen.has(m) && seen.add(m)),
  };
}
