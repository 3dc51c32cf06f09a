/**
 * @jest-environment node
 */
import { packTar } from 'modern-tar';
import { readPackageTar } from '../package-tar';

const LIST = 'kernel-default|0|6.4.0|150600.23.1|x86_64|obs://x|GPL-2.0\n';

function stream(bytes: Uint8Array, chunk = 1000): ReadableStream<Uint8Array> {
  let offset = 0;

  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();

        return;
      }
      controller.enqueue(bytes.slice(offset, offset + chunk));
      offset += chunk;
    },
  });
}

describe('readPackageTar', () => {
  it('reads one package list per `<version>.packages` file and skips the rest', async() => {
    const tar = await packTar([
      {
        header: {
          name: 'v1-os.packages', size: LIST.length, type: 'file'
        },
        body: LIST
      },
      {
        header: {
          name: 'sub/', size: 0, type: 'directory'
        }
      },
      {
        header: {
          name: 'sub/v2-os.packages', size: LIST.length, type: 'file'
        },
        body: LIST
      },
      {
        header: {
          name: 'README', size: 2, type: 'file'
        },
        body: 'hi'
      },
    ]);
    const read = await readPackageTar(stream(tar));

    expect(read.state).toBe('ok');
    expect(read.state === 'ok' && [...read.files.keys()].sort()).toEqual(['v1-os', 'v2-os']);
    expect(read.state === 'ok' && read.files.get('v2-os')).toBe(LIST);
  });

  it('stops past its bound instead of reading on', async() => {
    const big = 'x'.repeat(5000);
    const tar = await packTar([{
      header: {
        name: 'v1-os.packages', size: big.length, type: 'file'
      },
      body: big
    }]);

    expect(await readPackageTar(stream(tar), 2048)).toEqual({ state: 'tooLarge', limit: 2048 });
  });

  it('finds no package list in a body that is no tar (an HTML page, which the client calls "no service" first)', async() => {
    const html = new TextEncoder().encode(`<!DOCTYPE html><html>${ 'x'.repeat(600) }</html>`);
    const read = await readPackageTar(stream(html));

    expect(read.state === 'ok' ? read.files.size : 0).toBe(0);
  });
});
