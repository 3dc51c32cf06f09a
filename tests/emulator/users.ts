// The two local users and what each may do. Passwords are documented in docs/emulator.md.

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const ALL_VERBS: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const READ_VERBS: Verb[] = ['get', 'list', 'watch'];

export interface User {
  id: string;
  username: string;
  displayName: string;
  password: string;
  admin: boolean;
  /** Fleet clusters (names) whose downstream API this user may not read (/k8s/clusters/<id>/… answers 403). */
  deniedClusters?: string[];
}

export const USERS: User[] = [
  {
    id: 'user-h5cqk', username: 'admin', displayName: 'Default Admin', password: 'password1234', admin: true
  },
  {
    id: 'u-8mx2p', username: 'viewer', displayName: 'Read-only Viewer', password: 'password1234', admin: false
  },
  {
    // Reads the management cluster like the viewer, but has no role in the downstream cluster edge-berlin-02.
    id: 'u-l1m7d', username: 'limited', displayName: 'Limited Viewer', password: 'password1234', admin: false, deniedClusters: ['edge-berlin-02']
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
  verbs(typeId: string): Verb[];
}

export function userActor(user: User): Actor {
  return {
    name:  user.id,
    user,
    verbs: () => (user.admin ? ALL_VERBS : READ_VERBS),
  };
}

export const SYSTEM_ACTOR: Actor = {
  name:  'system:serviceaccount:cattle-elemental-system:elemental-operator',
  verbs: () => ALL_VERBS,
};

export function can(actor: Actor, verb: Verb, typeId: string): boolean {
  return actor.verbs(typeId).includes(verb);
}
