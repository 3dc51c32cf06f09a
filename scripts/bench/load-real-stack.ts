/**
 * The bench's large Rancher on the real stack (issues 28 and 30): the objects the emulator's
 * `--scale-versions/-channels/-pools/-clusters` make (tests/emulator/data/scale-channel.ts,
 * scale-fleet.ts) created in the API server scripts/real-stack/up started, so real Steve serves the
 * same lists the emulator does. Creates are POSTs with at most `--concurrency` in flight.
 *
 *   node_modules/.bin/tsx scripts/bench/load-real-stack.ts [--versions 20000] [--channels 40] [--pools 200]
 *     [--clusters 50] [--origin http://localhost:8996] [--concurrency 16] [--out FILE]
 *
 * Channels are written as the operator leaves them after a sync (status Ready, "successfully
 * loaded channel data", rancher/elemental-operator controllers/managedosversionchannel_controller.go),
 * their versions as its sync creates them (the channel label, the last-sync annotation, the channel
 * as controller owner: operator.ts createManagedOSVersions): the emulator's channel operator, a
 * client of the stack, then sees synced channels and does not sync 20,000 versions again at start.
 * Pools are created with their spec only (no Bundle: nothing reconciles them before the emulator
 * starts); Fleet clusters with the status the emulator seeds (real Fleet may rewrite it).
 * An object that exists (409) is counted, not changed; when the stack already holds every version,
 * that step is skipped. Prints, and writes to `--out`, the time of each step, the counts and etcd's
 * database size (its /metrics etcd_mvcc_db_total_size_in_bytes).
 */
import { existsSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { scaleChannels } from '../../tests/emulator/data/scale-channel';
import { scaleClusters, scalePools } from '../../tests/emulator/data/scale-fleet';
import { channelObject } from '../../tests/emulator/rancher/seed';
import { CHANNEL_LABEL, LAST_SYNC_ANNOTATION, versionSpec } from '../../tests/emulator/operator/operator';
import { realStackEndpoints } from '../../tests/emulator/real-stack/endpoints';
import { requestOnce } from '../../tests/emulator/real-stack/https-client';

const ROOT = join(__dirname, '..', '..');
const NAMESPACE = 'fleet-default';
const ELEMENTAL = '/apis/elemental.cattle.io/v1beta1';
const FLEET = '/apis/fleet.cattle.io/v1alpha1';

interface Options {
  versions: number; channels: number; pools: number; clusters: number; origin: string; concurrency: number; out?: string;
}

/** What the API server answers a create with, as far as this script reads it. */
interface Created { metadata: { name: string; uid: string; generation: number } }

interface Step { name: string; objects: number; created: number; existed: number; seconds: number }

function parseArgs(argv: string[]): Options {
  const options: Options = {
    versions: 20000, channels: 40, pools: 200, clusters: 50, origin: 'http://localhost:8996', concurrency: 16
  };

  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i].replace(/^--/, ''), argv[i + 1]];

    if (flag === 'origin' || flag === 'out') {
      options[flag] = value;
    } else if (flag in options) {
      (options as unknown as Record<string, number>)[flag] = Number(value);
    } else {
      throw new Error(`unknown option --${ flag } (--versions, --channels, --pools, --clusters, --origin, --concurrency, --out)`);
    }
  }

  return options;
}

const log = (message: string) => process.stderr.write(`[bench load-real-stack] ${ message }\n`);

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const stack = realStackEndpoints(process.env, ROOT);
  const send = async(method: string, path: string, body?: unknown, type = 'application/json') => {
    const answer = await requestOnce(`${ stack.kubeApi }${ path }`, method, {
      authorization: `Bearer ${ stack.adminToken }`, 'content-type': type, accept: 'application/json'
    }, body === undefined ? undefined : JSON.stringify(body));
    const json = answer.body.length ? JSON.parse(answer.body.toString('utf8')) : {};

    if (answer.status >= 300 && answer.status !== 409) {
      throw new Error(`${ method } ${ path }: ${ answer.status } ${ json.message ?? '' }`);
    }

    return { status: answer.status, json };
  };
  /** POSTs every object, at most `concurrency` at once; a 409 is an object that exists. */
  const createAll = async(name: string, path: string, objects: Record<string, unknown>[], after?: (created: Created) => Promise<unknown>): Promise<Step> => {
    const step: Step = {
      name, objects: objects.length, created: 0, existed: 0, seconds: 0
    };
    const start = Date.now();
    let next = 0;
    const worker = async() => {
      while (next < objects.length) {
        const answer = await send('POST', path, objects[next++]);

        if (answer.status === 409) {
          step.existed++;
        } else {
          step.created++;
          await after?.(answer.json);
        }
      }
    };

    await Promise.all(Array.from({ length: Math.min(options.concurrency, objects.length) }, worker));
    step.seconds = (Date.now() - start) / 1000;
    log(`${ name }: ${ step.created } created, ${ step.existed } existed, ${ step.seconds.toFixed(1) } s (${ (objects.length / Math.max(step.seconds, 0.001)).toFixed(0) }/s)`);

    return step;
  };
  const channels = scaleChannels(options.versions, options.channels);
  const clusters = scaleClusters(options.clusters);
  const steps: Step[] = [];
  const syncedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');

  const patchStatus = (path: string, status: unknown) => send('PATCH', `${ path }/status`, { status }, 'application/merge-patch+json');
  const clustersPath = `${ FLEET }/namespaces/${ NAMESPACE }/clusters`;
  const channelsPath = `${ ELEMENTAL }/namespaces/${ NAMESPACE }/managedosversionchannels`;
  const statusOfCluster = new Map(clusters.map((c) => [(c.metadata as { name: string }).name, c.status]));

  steps.push(await createAll('fleet clusters', clustersPath, clusters.map(({ status: _, ...rest }) => rest),
    (created) => patchStatus(`${ clustersPath }/${ created.metadata.name }`, statusOfCluster.get(created.metadata.name))));
  steps.push(await createAll('channels', channelsPath, channels.map((channel) => channelObject(channel.name, options.origin)),
    (created) => patchStatus(`${ channelsPath }/${ created.metadata.name }`, {
      syncedGeneration: created.metadata.generation,
      lastSyncedTime:   syncedAt,
      conditions:       [{
        type: 'Ready', status: 'True', reason: 'Synchronized', message: 'successfully loaded channel data', lastTransitionTime: syncedAt
      }],
    })));

  const stored = await send('GET', `${ ELEMENTAL }/managedosversions?limit=1`);
  const storedCount = (stored.json.items?.length ?? 0) + (stored.json.metadata?.remainingItemCount ?? 0);

  if (storedCount >= options.versions) {
    log(`versions: the stack holds ${ storedCount } already, not created again`);
  } else {
    const owners = new Map<string, { uid: string; spec: Record<string, unknown> }>();

    for (const channel of channels) {
      const { json } = await send('GET', `${ channelsPath }/${ channel.name }`);

      owners.set(channel.name, { uid: json.metadata.uid, spec: json.spec });
    }
    const versions = channels.flatMap((channel) => channel.entries.map((entry) => ({
      apiVersion: 'elemental.cattle.io/v1beta1',
      kind:       'ManagedOSVersion',
      metadata:   {
        name:            entry.metadata.name,
        namespace:       NAMESPACE,
        labels:          { [CHANNEL_LABEL]: channel.name },
        annotations:     { [LAST_SYNC_ANNOTATION]: syncedAt },
        ownerReferences: [{
          apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSVersionChannel', name: channel.name, uid: owners.get(channel.name)!.uid, controller: true
        }],
      },
      spec: versionSpec(entry.spec, owners.get(channel.name)!.spec as never),
    })));

    steps.push(await createAll('versions', `${ ELEMENTAL }/namespaces/${ NAMESPACE }/managedosversions`, versions));
  }
  steps.push(await createAll('pools', `${ ELEMENTAL }/namespaces/${ NAMESPACE }/managedosimages`, scalePools(options.pools, channels, options.clusters)));

  const envFile = join(process.env.REAL_STACK_DIR || join(ROOT, '.real-stack'), 'endpoints.env');
  const etcd = process.env.REAL_STACK_ETCD || (existsSync(envFile) ? /^REAL_STACK_ETCD=(.*)$/m.exec(readFileSync(envFile, 'utf8'))?.[1] : undefined);
  const metrics = etcd ? await fetch(`${ etcd }/metrics`).then((r) => r.text(), () => '') : '';
  const etcdBytes = Number(/^etcd_mvcc_db_total_size_in_bytes (\S+)$/m.exec(metrics)?.[1] ?? NaN);
  const result = {
    ...options, steps, seconds: steps.reduce((sum, step) => sum + step.seconds, 0), etcdBytes
  };

  log(`done in ${ result.seconds.toFixed(1) } s; etcd's database ${ (etcdBytes / 1e6).toFixed(1) } MB`);
  if (options.out) {
    writeFileSync(options.out, `${ JSON.stringify(result, null, 2) }\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`${ error instanceof Error ? error.stack : error }\n`);
  process.exit(1);
});
