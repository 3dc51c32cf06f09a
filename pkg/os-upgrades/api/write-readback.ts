// One send and its answer, for api/write.ts (the routine every write goes through): when the
// answer is not clear (a 5xx, a dropped answer, a timeout, a cancel) the object is read again and
// tells what was written (domain/write-outcome.ts, readBackVerdict).
import { jsonCopy, KubeObject, readBackVerdict, WriteOutcome } from '../domain';
import {
  errorMessage, findOne, ShellStore, WriteError, writeObject, WriteOptions
} from './resources';

/** Read from the server, and start no watch of one object (the shell would stop its list's watch). */
export const FRESH = { force: true, watch: false };

/** A send's outcome: never `refused` (nothing planned here); a conflict's `latest` is read by api/write.ts. */
export type WriteResult = Exclude<WriteOutcome, { kind: 'refused' }>;

export interface SendRequest {
  type: string;
  object: KubeObject;
  mode: 'create' | 'update';
  /** The object as read before (undefined for a create). */
  before?: KubeObject;
  /** How a read holds an expected content (default: the domain's holdsWrittenContent). */
  same?: (expected: unknown, read: unknown) => boolean;
  /** Turns a read into the plain object compared and returned. */
  plain?: (read: unknown) => KubeObject;
}

export function idOf(object: KubeObject): string {
  const { namespace, name } = (object.metadata || {}) as { namespace?: string; name?: string };

  return namespace ? `${ namespace }/${ name ?? '' }` : String(name ?? '');
}

function statusOf(err: unknown): number | undefined {
  const e = err as { _status?: number; status?: number } | undefined;

  return e?._status ?? e?.status;
}

/** The object as stored now: undefined when it does not exist (404), 'unreadable' on any other failure. */
export async function readBack(store: ShellStore, type: string, id: string, plain: (read: unknown) => KubeObject = jsonCopy): Promise<KubeObject | undefined | 'unreadable'> {
  try {
    return plain(await findOne(store, type, id, FRESH));
  } catch (err) {
    return statusOf(err) === 404 ? undefined : 'unreadable';
  }
}

export async function writeAndReadBack(store: ShellStore, request: SendRequest, options: WriteOptions = {}): Promise<WriteResult> {
  const plain = request.plain ?? jsonCopy;

  try {
    const answer = await writeObject(store, request.type, request.object, request.mode, options);

    return {
      kind: 'written', stored: plain(answer ?? request.object), readBack: false
    };
  } catch (err) {
    const message = errorMessage(err);

    if (err instanceof WriteError) {
      if (err.isConflict) {
        return { kind: 'conflict', message };
      }
      if (err.isForbidden) {
        return { kind: 'forbidden', message };
      }
      if (err.isUnauthorized) {
        return { kind: 'unauthorized', message };
      }
      if (err.status === 400 || err.status === 422) {
        return { kind: 'invalid', message };
      }
    }
    const kind = err instanceof WriteError && err.isCancelled ? 'cancelled' : err instanceof WriteError && err.isTimeout ? 'timeout' : 'failed';
    // An object named by the server (generateName) cannot be read back by name.
    const latest = (request.object.metadata as { name?: unknown } | undefined)?.name ? await readBack(store, request.type, idOf(request.object), plain) : 'unreadable';

    if (latest === 'unreadable') {
      return {
        kind, message, written: 'unknown'
      };
    }
    const written = readBackVerdict(request.object, request.before, latest, request.same);

    if (written === 'written' && latest) {
      // Only the answer was lost (or came too late): what is stored is what was sent.
      return {
        kind: 'written', stored: latest, readBack: true
      };
    }

    return {
      kind, message, written, ...(latest ? { latest } : {})
    };
  }
}
