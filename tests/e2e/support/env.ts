// Where the specs run: the emulator (default) or a real Rancher given by E2E_BASE_URL.

import { test } from '@playwright/test';

/** playwright.config.ts's project of the untagged tests: the emulator as a fresh Rancher, no control endpoints. */
export const REAL_RANCHER_MODE_PROJECT = 'real-rancher-mode';

/** The running test is in the real Rancher mode project (false outside a test). */
export function inRealRancherModeProject(): boolean {
  try {
    return test.info().project.name === REAL_RANCHER_MODE_PROJECT;
  } catch {
    return false;
  }
}

/**
 * `limited`: reads the management cluster but has no access to one downstream cluster (emulator user, or E2E_LIMITED_*);
 * `member`: reads the nodes of the downstream clusters but not their Plans and Jobs (no System project; E2E_MEMBER_*).
 */
export type Role = 'admin' | 'viewer' | 'editor' | 'limited' | 'member';

export interface Credentials {
  username: string;
  password: string;
}

/** True when the specs run against the emulator with its control endpoints, started by playwright.config.ts. */
export function onEmulator(): boolean {
  return !process.env.E2E_BASE_URL && !inRealRancherModeProject();
}

/**
 * True on the real stack (scripts/lib/e2e-real-stack.sh sets E2E_REAL_STACK): its nodes are kwok's,
 * which run no drain and no reboot (docs/emulator.md, "What is real"), so a job's pod goes from
 * waiting to upgrading to done.
 */
export function onRealStack(): boolean {
  return process.env.E2E_REAL_STACK === '1';
}

/**
 * The credentials of a role: the emulator's users, or E2E_ADMIN_* / E2E_VIEWER_* / E2E_EDITOR_*
 * for a real Rancher (the editor may write ManagedOSImages in E2E_NAMESPACE only).
 */
export function credentials(role: Role): Credentials {
  if (role === 'admin') {
    return {
      username: process.env.E2E_ADMIN_USER || 'admin',
      password: process.env.E2E_ADMIN_PASSWORD || 'password1234',
    };
  }
  if (role === 'editor') {
    return {
      username: process.env.E2E_EDITOR_USER || 'editor',
      password: process.env.E2E_EDITOR_PASSWORD || 'password1234',
    };
  }

  if (role === 'member') {
    return {
      username: process.env.E2E_MEMBER_USER || 'member',
      password: process.env.E2E_MEMBER_PASSWORD || 'password1234',
    };
  }
  if (role === 'limited') {
    return {
      username: process.env.E2E_LIMITED_USER || 'limited',
      password: process.env.E2E_LIMITED_PASSWORD || 'password1234',
    };
  }

  return {
    username: process.env.E2E_VIEWER_USER || 'viewer',
    password: process.env.E2E_VIEWER_PASSWORD || 'password1234',
  };
}

/** The namespace the specs create their test objects in. */
export const TEST_NAMESPACE = process.env.E2E_NAMESPACE || 'fleet-default';
