// The ManagedOSChangelog requests of changelog extraction (PR #891's operator: api/changelog-resources.ts,
// stores/changelogs.ts): a person's click creates the object, the page reads it by id and watches it
// by namespace and id from that read's revision until the operator answers, then stops the watch;
// the shell's findAll reads every changelog and watches the type with and without a revision.
// No operator runs on the stack, so nothing answers the object here: Steve's own answers are recorded.
import { resourceVersionAs, revisionAs } from './answers';
import { RequestStep, SCENARIO_LABEL, Scenario } from '../scenario';

const NAME = 'steve-changelogs';
const NS = 'fleet-default';
const TYPE = 'elemental.cattle.io.managedoschangelog';
const PATH = `/v1/${ TYPE }s`;
const CHANGELOG = 'conf-c-v1-0-0-0a1b2c3d';

function get(path: string, learn: RequestStep['learn'], compare: RequestStep['compare']): RequestStep {
  return {
    compare,
    learn,
    request: {
      user: 'admin', method: 'GET', path
    }
  };
}

export const steveChangelogs: Scenario = {
  name:           NAME,
  about:          'ManagedOSChangelog (PR #891\'s operator) as changelog extraction uses it: create, read by id, findAll, watches by id, with and without a revision, and their stop',
  operatorCrds:   'pr891',
  replayEmulator: {
    timeScale: 0, rolloutStepMs: 20, changelogService: 'pr891'
  },
  steps: [
    get(`${ PATH }?pagesize=100000&exclude=metadata.managedFields`, revisionAs('list'), 'scenario-items'),
    // The type's watches (the shell's findAll), with no changelog yet: the emulator's operator answers a
    // new one at once, which a watch from now would see there and not on the stack (no operator).
    {
      watch: {
        user:      'admin',
        subscribe: [
          { resourceType: TYPE },
          { resourceType: TYPE, resourceVersion: '{name:list}' },
          {
            resourceType: TYPE, resourceVersion: '{name:list}', stop: true
          },
        ],
        messageGapMs: 500,
      },
      during:    [],
      collectMs: 1000,
    },
    {
      compare: 'object',
      request: {
        user:   'admin',
        method: 'POST',
        path:   PATH,
        body:   {
          type:       TYPE,
          apiVersion: 'elemental.cattle.io/v1beta1',
          kind:       'ManagedOSChangelog',
          metadata:   {
            name: CHANGELOG, namespace: NS, labels: { [SCENARIO_LABEL]: NAME }
          },
          spec: {
            channelRef: { name: 'conf-c-channel', namespace: NS }, osVersion: 'v1.0.0', cleanupAfterMinutes: 60
          },
        },
      },
    },
    // Read once the emulator's operator has answered the object (its status), so the watch from this revision sees no change.
    { ...get(`${ PATH }/${ NS }/${ CHANGELOG }?exclude=metadata.managedFields`, resourceVersionAs('object'), 'object'), settleMs: 1000 },
    {
      watch: {
        user:      'admin',
        subscribe: [
          {
            resourceType: TYPE, namespace: NS, id: CHANGELOG, resourceVersion: '{name:object}'
          },
          {
            resourceType: TYPE, namespace: NS, id: CHANGELOG, resourceVersion: '{name:object}', stop: true
          },
        ],
        messageGapMs: 500,
      },
      during: [{
        compare: 'status',
        request: {
          user: 'admin', method: 'DELETE', path: `${ PATH }/${ NS }/${ CHANGELOG }`
        }
      }],
      collectMs: 1000,
    },
  ],
};
