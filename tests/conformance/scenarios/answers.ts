// What a scenario's `poll` reads of an answer from the Kubernetes API (lists, conditions, deletion).
export interface Answer {
  status: number;
  body: unknown;
}

interface KubeBody {
  items?: { metadata?: { name?: string } }[];
  metadata?: { deletionTimestamp?: string };
  status?: { conditions?: { type?: string; status?: string }[] };
}

const kube = (answer: Answer): KubeBody => (answer.body && typeof answer.body === 'object' ? answer.body as KubeBody : {});

/** The names of a list's items (none when the answer is not a list). */
export function itemNames(answer: Answer): string[] {
  return (kube(answer).items ?? []).map((item) => item.metadata?.name ?? '');
}

export function isList(answer: Answer): boolean {
  return Array.isArray(kube(answer).items);
}

/** The object is being deleted (Terminating). */
export function deleting(answer: Answer): boolean {
  return !!kube(answer).metadata?.deletionTimestamp;
}

/** The object's condition `type` is True. */
export function conditionTrue(answer: Answer, type: string): boolean {
  return (kube(answer).status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** What a step learns (RequestStep.learn): `value` under `key`, when the answer gave one. */
export function learnt(key: string, value: unknown): Record<string, string> {
  return typeof value === 'string' && value ? { [key]: value } : {};
}

/** A Steve list's revision, learnt under `key` for a watch of that type (Steve's SQL cache holds a revision per type). */
export const revisionAs = (key: string) => (answer: Answer): Record<string, string> => learnt(key, (answer.body as { revision?: unknown } | null)?.revision);

/** An object's resourceVersion, learnt under `key` (a PUT's, or a watch of that object from it). */
export const resourceVersionAs = (key: string) => (answer: Answer): Record<string, string> => learnt(key, (answer.body as { metadata?: { resourceVersion?: unknown } } | null)?.metadata?.resourceVersion);
