// The local users and what each may do, as RBAC rules: a rule grants verbs on types in every
// namespace or in one. Passwords are documented in docs/emulator.md.

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const ALL_VERBS: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const READ_VERBS: Verb[] = ['get', 'list', 'watch'];
const WRITE_VERBS: Verb[] = ['create', 'delete', 'patch', 'update'];

/** One RBAC grant: `types` are Steve type ids or '*'; `namespace` '*' is every namespace and cluster-scoped types. */
export interface Rule {
  verbs: Verb[];
  types: string[] | '*';
  namespace: string | '*';
}

export interface User {
  id: string;
  username: string;
  displayName: string;
  password: string;
  admin: boolean;
  /** Fleet clusters (names) whose downstream API this user may not read (/k8s/clusters/<id>/… answers 403). */
  deniedClusters?: string[];
  rules: Rule[];
  /** The user's rules in every downstream cluster (a cluster or project role there); undefined: the same as `rules`. */
  downstreamRules?: Rule[];
}

export const IMAGE_TYPE = 'elemental.cattle.io.managedosimage';

export const USERS: User[] = [
  {
    id:          'user-h5cqk',
    username:    'admin',
    displayName: 'Default Admin',
    password:    'password1234',
    admin:       true,
    rules:       [{
      verbs: ALL_VERBS, types: '*', namespace: '*'
    }]
  },
  {
    id:          'u-8mx2p',
    username:    'viewer',
    displayName: 'Read-only Viewer',
    password:    'password1234',
    admin:       false,
    rules:       [{
      verbs: READ_VERBS, types: '*', namespace: '*'
    }]
  },
  {
    // A project member of fleet-default's pools only (a RoleBinding in that namespace).
    id:          'u-q7c4t',
    username:    'editor',
    displayName: 'Pool Editor (fleet-default)',
    password:    'password1234',
    admin:       false,
    rules:       [
      {
        verbs: READ_VERBS, types: '*', namespace: '*'
      },
      {
        verbs: WRITE_VERBS, types: [IMAGE_TYPE], namespace: 'fleet-default'
      },
    ],
  },
  {
    // Reads the management cluster like the viewer, but has no role in the downstream cluster edge-berlin-02.
    id:             'u-l1m7d',
    username:       'limited',
    displayName:    'Limited Viewer',
    password:       'password1234',
    admin:          false,
    deniedClusters: ['edge-berlin-02'],
    rules:          [{
      verbs: READ_VERBS, types: '*', namespace: '*'
    }]
  },
  {
    // Reads the management cluster like the viewer; in every downstream cluster a member of the
    // project holding edge-apps only, without the System project (cattle-system): Rancher's
    // cluster-member role lets them read Nodes, the project role Jobs and Pods in edge-apps, and
    // nothing grants Plans (upgrade.cattle.io) anywhere.
    id:          'u-m3b9r',
    username:    'member',
    displayName: 'Cluster Member (no System project)',
    password:    'password1234',
    admin:       false,
    rules:       [{
      verbs: READ_VERBS, types: '*', namespace: '*'
    }],
    downstreamRules: [
      {
        verbs: READ_VERBS, types: ['node'], namespace: '*'
      },
      {
        verbs: READ_VERBS, types: ['batch.job', 'pod', 'namespace'], namespace: 'edge-apps'
      },
    ],
  },
];

export function principalIdOf(user: User): string {
  return `local://${ user.id }`;
}

export function findUser(username: string, password: string): User | undefined {
  return USERS.find((u) => u.username === username && u.password === password);
}

export function userById(id: string): User | undefined {
  return USERS.find((u) => u.id === id);
}

/** Someone acting on the API: a logged-in user, or the emulator's own controllers. */
export interface Actor {
  /** As Kubernetes names the caller in Forbidden messages. */
  name: string;
  user?: User;
  rules: Rule[];
}

export function userActor(user: User): Actor {
  return {
    name: user.id, user, rules: user.rules
  };
}

/** The user acting on a downstream cluster's own API. */
export function downstreamActor(user: User): Actor {
  return {
    name: user.id, user, rules: user.downstreamRules ?? user.rules
  };
}

export const SYSTEM_ACTOR: Actor = {
  name:  'system:serviceaccount:cattle-elemental-system:elemental-operator',
  rules: [{
    verbs: ALL_VERBS, types: '*', namespace: '*'
  }],
};

export const ANONYMOUS_ACTOR: Actor = {
  name:  'system:unauthenticated',
  rules: [{
    verbs: ['get', 'list'], types: ['management.cattle.io.setting'], namespace: '*'
  }],
};

function ruleCovers(rule: Rule, verb: Verb, typeId: string): boolean {
  return rule.verbs.includes(verb) && (rule.types === '*' || rule.types.includes(typeId));
}

/**
 * Whether the actor may do `verb` on `typeId` in `namespace` (undefined: cluster-wide, e.g. a
 * cluster-scoped object or a list of all namespaces), as Steve's AccessSet.Grants
 * (rancher/steve pkg/accesscontrol/access_set.go) and Kubernetes RBAC decide.
 */
export function can(actor: Actor, verb: Verb, typeId: string, namespace?: string): boolean {
  return actor.rules.some((rule) => ruleCovers(rule, verb, typeId) && (rule.namespace === '*' || rule.namespace === namespace));
}

/** Granted in at least one namespace: Steve's AccessListByVerb.AnyVerb, which fills a schema's methods. */
export function canAnywhere(actor: Actor, verb: Verb, typeId: string, namespaced = true): boolean {
  return actor.rules.some((rule) => ruleCovers(rule, verb, typeId) && (namespaced || rule.namespace === '*'));
}

/** The verbs the actor has on a type in one namespace: Steve's checkPermissions answer. */
export function verbsIn(actor: Actor, typeId: string, namespace: string): Verb[] {
  return ALL_VERBS.filter((verb) => can(actor, verb, typeId, namespace));
}

/** One line per user for the start-up banner (scripts/run shows it): who can log in, with what. */
export function userBanner(users: readonly User[] = USERS): string[] {
  return users.map((user) => `${ user.username } / ${ user.password } (${ user.displayName })`);
}
