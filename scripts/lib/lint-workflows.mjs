// Static checks of the GitHub workflows and of the scripts they run, part of `yarn lint`:
// every .github/workflows/*.yml against GitHub's workflow schema (@action-validator/core), and
// every scripts/e2e-rancher/*.sh parsed by bash (`bash -n`). Prints each problem; exits 1 on any.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';

const root = new URL('../..', import.meta.url).pathname;
const problems = [];

const workflows = join(root, '.github/workflows');

for (const name of readdirSync(workflows).filter((f) => /\.ya?ml$/.test(f))) {
  const { errors } = validateWorkflow(readFileSync(join(workflows, name), 'utf8'));

  for (const error of errors) {
    const detail = (error.states ?? []).flatMap((state) => state.errors ?? []).map((e) => e.detail ?? e.title);

    problems.push(`.github/workflows/${ name }: ${ error.path } ${ error.title }${ detail.length ? ` (${ [...new Set(detail)].join('; ') })` : '' }`);
  }
}

const scripts = join(root, 'scripts/e2e-rancher');

for (const name of readdirSync(scripts).filter((f) => f.endsWith('.sh'))) {
  try {
    execFileSync('bash', ['-n', join(scripts, name)], { stdio: 'pipe' });
  } catch (e) {
    problems.push(`scripts/e2e-rancher/${ name }: ${ String(e.stderr).trim() }`);
  }
}

for (const problem of problems) {
  console.error(problem); // eslint-disable-line no-console
}
process.exit(problems.length ? 1 : 0);
