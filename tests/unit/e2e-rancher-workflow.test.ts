/** @jest-environment node */
// .github/workflows/e2e-rancher.yml tests every Rancher minor the package declares it runs on,
// from the lower bound of catalog.cattle.io/rancher-version up to the one the emulator imitates
// and beyond, plus the newest release: a change of the declared range must change the matrix.
import fs from 'fs';
import path from 'path';
import jsyaml from 'js-yaml';
import semver from 'semver';
import { RANCHER_VERSION } from '../emulator/rancher/seed';

const ROOT = path.join(__dirname, '../..');
const workflow = jsyaml.safeLoad(fs.readFileSync(path.join(ROOT, '.github/workflows/e2e-rancher.yml'), 'utf8')) as {
  on: { workflow_dispatch: { inputs: { rancher: { default: string } } }; schedule: unknown[] };
  jobs: { e2e: { strategy: { matrix: { rancher: string } }; env: Record<string, string>; steps: { run?: string }[] } };
};
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'pkg/os-upgrades/package.json'), 'utf8')) as { rancher: { annotations: Record<string, string> } };

const declared = pkg.rancher.annotations['catalog.cattle.io/rancher-version'];
const inputDefault = JSON.parse(workflow.on.workflow_dispatch.inputs.rancher.default) as string[];
const scheduledDefault = JSON.parse(/\|\|\s*'([^']+)'/.exec(workflow.jobs.e2e.strategy.matrix.rancher)?.[1] ?? '[]') as string[];

describe('the real Rancher workflow', () => {
  it('runs on dispatch and on a schedule with the same versions', () => {
    expect(workflow.on.schedule.length).toBeGreaterThan(0);
    expect(scheduledDefault).toEqual(inputDefault);
  });

  it('tests every declared minor from the lower bound to past the emulated one, and the newest', () => {
    const lowest = semver.minVersion(declared) as semver.SemVer;
    const emulated = semver.parse(RANCHER_VERSION) as semver.SemVer;
    const minors = inputDefault.filter((v) => v !== 'latest');

    expect(inputDefault).toContain('latest');
    for (let minor = lowest.minor; minor <= emulated.minor + 1; minor++) {
      expect(minors).toContain(`${ lowest.major }.${ minor }`);
    }
    for (const minor of minors) {
      expect(semver.satisfies(`${ minor }.0`, declared)).toBe(true);
    }
  });

  it('runs each step through scripts/e2e-rancher, which a person can run too', () => {
    const scripts = workflow.jobs.e2e.steps.map((step) => /scripts\/e2e-rancher\/([\w-]+\.sh)/.exec(step.run ?? '')?.[1]).filter(Boolean);

    expect(scripts).toEqual(['cluster.sh', 'rancher.sh', 'elemental.sh', 'extension.sh', 'users.sh', 'test.sh', 'down.sh']);
    for (const script of scripts) {
      expect(fs.statSync(path.join(ROOT, 'scripts/e2e-rancher', script as string)).mode & 0o111).toBeTruthy();
    }
    expect(fs.readFileSync(path.join(ROOT, 'scripts/e2e-rancher/up.sh'), 'utf8')).toMatch(/cluster\.sh[\s\S]*rancher\.sh[\s\S]*elemental\.sh[\s\S]*extension\.sh[\s\S]*users\.sh/);
  });

  it('lets the operator in the k3d cluster reach the specs\' file host', () => {
    const env = workflow.jobs.e2e.env;

    // On 127.0.0.1 only (global-setup.ts's default) no pod of the cluster could fetch a channel file the specs publish.
    expect(env.E2E_FILES_HOST).toBe('0.0.0.0');
    expect(env.E2E_FILES_CLUSTER_URL).toBe(`http://host.k3d.internal:${ env.E2E_FILES_PORT }`);
  });
});
