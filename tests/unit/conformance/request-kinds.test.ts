/** @jest-environment node */
// What makes two requests of one kind for the recordings' coverage (tests/conformance/request-kinds.ts),
// and what coverage.ts reports from an emulator's request log.
import fs from 'fs';
import os from 'os';
import path from 'path';
import { requestKind, subscribeKind } from '../../conformance/request-kinds';
import { coverage, loggedKinds, recordedKinds } from '../../conformance/coverage';
import { RequestLog } from '../../emulator/core/request-log';
import { Recording } from '../../conformance/scenario';

describe('requestKind', () => {
  it('leaves out names, namespaces and values, and keeps the type, the query and the fields', () => {
    expect(requestKind('GET', '/v1/elemental.cattle.io.managedosversions/fleet-default/v1-2?exclude=metadata.managedFields'))
      .toBe('GET /v1/elemental.cattle.io.managedosversions/*/*?exclude');
    expect(requestKind('GET', '/v1/elemental.cattle.io.managedosversions?filter=metadata.labels%5Belemental.cattle.io%2Fchannel%5D%3Dsl&sort=-metadata.name&pagesize=50&page=2'))
      .toBe('GET /v1/elemental.cattle.io.managedosversions?filter:metadata.labels[*]=&page&pagesize&sort:-metadata.name');
  });

  it('tells filter operators apart and counts a field OR-ed with itself once', () => {
    const kind = (filter: string) => requestKind('GET', `/v1/fleet.cattle.io.bundles?filter=${ encodeURIComponent(filter) }`);

    expect(kind('metadata.name=a,metadata.name=b,metadata.name=c')).toBe(kind('metadata.name=a'));
    expect(kind('metadata.name~a')).not.toBe(kind('metadata.name=a'));
    expect(kind('metadata.labels[x] in (a,b)')).toBe('GET /v1/fleet.cattle.io.bundles?filter:metadata.labels[*] IN');
    expect(kind('!metadata.labels[x]')).toBe('GET /v1/fleet.cattle.io.bundles?filter:!metadata.labels[*]');
    expect(kind('metadata.labels[x]!=a')).toBe('GET /v1/fleet.cattle.io.bundles?filter:metadata.labels[*]!=');
  });

  it('shapes Kubernetes paths by resource, and a downstream cluster\'s by its proxy', () => {
    expect(requestKind('GET', '/k8s/clusters/c-m-b3rl1n01/api/v1/namespaces/cattle-system/pods/apply-x/log?container=upgrade&tailLines=40'))
      .toBe('GET /k8s/clusters/*/api/v1/namespaces/*/pods/*/log?container&tailLines');
    expect(requestKind('PUT', '/apis/elemental.cattle.io/v1beta1/namespaces/fleet-default/managedosimages/pool'))
      .toBe('PUT /apis/elemental.cattle.io/v1beta1/namespaces/*/managedosimages/*');
    expect(requestKind('GET', '/k8s/clusters/c-1/v1/nodes')).toBe('GET /k8s/clusters/*/v1/nodes');
  });

  it('has no kind for what is Rancher\'s own (the real programs never answer it)', () => {
    expect(requestKind('GET', '/v1/management.cattle.io.settings')).toBeUndefined();
    expect(requestKind('GET', '/v1/userpreferences')).toBeUndefined();
    expect(requestKind('GET', '/v3/users?me=true')).toBeUndefined();
    expect(requestKind('POST', '/v1/logout')).toBeUndefined();
    expect(requestKind('GET', '/apis/management.cattle.io/v3/clusters')).toBeUndefined();
  });
});

describe('subscribeKind', () => {
  it('keeps the type, the mode, and whether a revision, namespace, id or selector is named', () => {
    expect(subscribeKind('/v1/subscribe', { resourceType: 'elemental.cattle.io.managedosimage', resourceVersion: '12' }))
      .toBe('WATCH /v1/subscribe elemental.cattle.io.managedosimage objects revision');
    expect(subscribeKind('/k8s/clusters/c-1/v1/subscribe', {
      resourceType: 'batch.job', namespace: 'cattle-system', mode: 'resource.changes'
    }))
      .toBe('WATCH /k8s/clusters/*/v1/subscribe batch.job resource.changes no revision by namespace');
    expect(subscribeKind('/v1/subscribe', { resourceType: 'fleet.cattle.io.bundle', stop: true })).toBe('WATCH /v1/subscribe fleet.cattle.io.bundle stop');
    expect(subscribeKind('/v1/subscribe', { resourceType: 'management.cattle.io.setting' })).toBeUndefined();
  });
});

describe('coverage', () => {
  const recording: Recording = {
    scenario:  's',
    about:     '',
    versions:  {},
    exchanges: [
      {
        request: {
          user: 'admin', method: 'GET', path: '/v1/fleet.cattle.io.bundles?filter=metadata.name%3Da'
        },
        compare:  'list',
        response: { status: 200, body: {} }
      },
      {
        watch: {
          user: 'admin', subscribe: [{ resourceType: 'fleet.cattle.io.bundle' }], atLastRevision: true
        },
        events: []
      },
    ],
  };

  it('reports each kind the log holds that no recording has, with an example, and the recorded ones as covered', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'request-log-')), 'requests.jsonl');
    const log = new RequestLog();

    log.open(file);
    log.request('GET', '/v1/fleet.cattle.io.bundles?filter=metadata.name%3Db');
    log.request('GET', '/v1/fleet.cattle.io.bundles?filter=metadata.name%3Db');
    log.request('GET', '/v1/fleet.cattle.io.bundles/fleet-default/b');
    log.request('GET', '/v1/management.cattle.io.settings');
    log.request('GET', '/index.html');
    log.subscribe('/v1/subscribe', { resourceType: 'fleet.cattle.io.bundle', resourceVersion: '7' });
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const result = coverage(loggedKinds(lines), recordedKinds([recording]), { 'GET /v1/management.cattle.io.settings': 'never a kind' });

    expect(lines.filter(Boolean)).toHaveLength(4);
    expect(result.covered).toEqual(['GET /v1/fleet.cattle.io.bundles?filter:metadata.name=', 'WATCH /v1/subscribe fleet.cattle.io.bundle objects revision']);
    expect(result.uncovered).toEqual([{ kind: 'GET /v1/fleet.cattle.io.bundles/*/*', example: 'GET /v1/fleet.cattle.io.bundles/fleet-default/b' }]);
    expect(result.notRecordable).toEqual([]);
  });
});
