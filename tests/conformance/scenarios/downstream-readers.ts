// What the node table (api/downstream.ts) reads of a downstream cluster for a user without full
// rights there: `member`, a member of the project holding edge-apps only (Nodes, and Jobs and Pods of
// edge-apps; no Plans, no cattle-system), and `limited`, who reads the cluster as the viewer does.
// Recorded through the emulator in front of the stack, which passes member to the stand-in cluster as
// the identity `downstream:u-m3b9r` holding those rights (tests/real-stack/rbac.yaml).
import { Comparison, RequestStep, Scenario, UserName } from '../scenario';

const NAME = 'downstream-readers';
const CLUSTER = '/k8s/clusters/c-m-b3rl1n01';
const V1 = `${ CLUSTER }/v1`;

function get(user: UserName, path: string, compare: Comparison): RequestStep {
  return {
    compare,
    request: {
      user, method: 'GET', path
    }
  };
}

function reads(user: UserName): RequestStep[] {
  return [
    get(user, `${ V1 }/namespaces/cattle-system`, 'error'),
    get(user, `${ V1 }/nodes`, 'list'),
    get(user, `${ V1 }/batch.jobs/cattle-system`, 'list'),
    get(user, `${ V1 }/batch.jobs/edge-apps`, 'list'),
    get(user, `${ V1 }/upgrade.cattle.io.plans/cattle-system`, 'error'),
    get(user, `${ V1 }/pods/cattle-system?filter=metadata.labels%5Bjob-name%5D%3Dapply-os-upgrader-on-node-1`, 'list'),
    get(user, `${ CLUSTER }/api/v1/namespaces/cattle-system/pods/apply-os-upgrader-on-node-1/log?container=upgrade&tailLines=40`, 'kube-error'),
  ];
}

export const downstreamReaders: Scenario = {
  name:            NAME,
  throughEmulator: true,
  needs:           ['kwok'],
  about:           'the node table\'s reads of edge-berlin-01 by a project member without the System project (member) and by a read-only user (limited): which answer lists, which are empty, which are refused',
  steps:           [...reads('member'), ...reads('limited')],
};
