// Reads a channel's package-list tar (rancher/elemental-channels `channels/<channel>.packages.tar`)
// once: streamed through modern-tar's decoder, stopped past a size bound. modern-tar is loaded
// only when a channel names a tar.
import { MAX_PACKAGE_TAR_BYTES, packageTarEntryVersion } from '../domain';

export type TarRead =
  | { state: 'ok'; files: Map<string, string> }
  | { state: 'tooLarge'; limit: number }
  | { state: 'unreadable' };

/** Thrown through the stream when the tar grows past the bound. */
class TooLarge extends Error {}

function bounded(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;

  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > limit) {
        controller.error(new TooLarge());

        return;
      }
      controller.enqueue(chunk);
    },
  });
}

/** The `<version>.packages` files of a tar body, by version name, as text. */
export async function readPackageTar(body: ReadableStream<Uint8Array>, limit = MAX_PACKAGE_TAR_BYTES): Promise<TarRead> {
  const decoder = new TextDecoder();

  try {
    const { unpackTar } = await import(/* webpackChunkName: "modern-tar" */ 'modern-tar');
    const entries = await unpackTar(body.pipeThrough(bounded(limit)), { filter: (header) => packageTarEntryVersion(header.name, header.type) !== undefined });
    const files = new Map<string, string>();

    for (const entry of entries) {
      const version = packageTarEntryVersion(entry.header.name, entry.header.type);

      if (version && entry.data) {
        files.set(version, decoder.decode(entry.data));
      }
    }

    return { state: 'ok', files };
  } catch (err) {
    return err instanceof TooLarge ? { state: 'tooLarge', limit } : { state: 'unreadable' };
  }
}
