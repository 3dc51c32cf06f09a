// The one routine for every write (pools, channels, settings, changelog resources): send, and
// when the answer is not clear (a 5xx, a dropped answer, a timeout, a cancel) read the object
// again and tell from it what was written (domain/write-outcome.ts, readBackVerdict).
import { jsonCopy, KubeObject, readBackVerdict, WriteVerdict } from '../domain';
import {
  errorMessage, findOne, ShellStore, WriteError, writeObject, WriteOptions
} from './resources';

/** Read from the server, and start no watch of one object (the shell would stop its list's watch). */
export const FRESH = { force: true, watch: false };

export type WriteResult =
  /** `stored` is what the server answered, or what a read afterwards showed. */
  | { kind: 'written'; stored: KubeObject; readBack: boolean }
  /** The server refused (409, 403, 400/422, 401): nothing was written. */
  | { kind: 'conflict' | 'forbidden' | 'invalid' | 'unauthorized'; message: string }
  /** No clear answer; `written` is what a read afterwards showed, `latest` that read (undefined when gone or unreadable). */
  | { kind: 'failed' | 'timeout' | 'cancelled'; message: string; written: WriteVerdict; latest?: KubeObject };

export interface WriteRequest {
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

function idOf(object: KubeObject): string {
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

export async function writeAndReadBack(store: ShellStore, request: WriteRequest, options: WriteOptions = {}): Promise<WriteResult> {
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
