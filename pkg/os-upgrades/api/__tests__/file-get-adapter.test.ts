// The changelog client's file adapter against a real HTTP server, through jsdom's XMLHttpRequest.
/* global jest, beforeAll, afterAll */
import { createServer, IncomingMessage, Server, ServerResponse } from 'http';
import { AddressInfo } from 'net';
import axios, { AxiosError, AxiosHeaders, InternalAxiosRequestConfig } from 'axios';
import { fileGetAdapter } from '../file-get-adapter';

let server: Server;
let base = '';
const seen: IncomingMessage[] = [];
const BIG = 'x'.repeat(256 * 1024);

function handle(req: IncomingMessage, res: ServerResponse): void {
  seen.push(req);
  res.setHeader('Access-Control-Allow-Origin', '*');
  switch (req.url) {
  case '/file.log':
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('one\ntwo\n');
    break;
  case '/moved':
    res.statusCode = 302;
    res.setHeader('Location', '/file.log');
    res.end();
    break;
  case '/big':
    res.setHeader('Content-Length', String(BIG.length));
    res.end(BIG);
    break;
  case '/hang':
    // Never answers: the timeout or the caller's abort ends it.
    break;
  case '/drop':
    req.socket.destroy();
    break;
  default:
    res.statusCode = 404;
    res.end('not here');
  }
}

beforeAll(async() => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${ (server.address() as AddressInfo).port }`;
});

afterAll(async() => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
});

function get(path: string, more: Partial<InternalAxiosRequestConfig> = {}) {
  return fileGetAdapter({
    url: `${ base }${ path }`, method: 'get', headers: new AxiosHeaders({ Accept: 'text/plain, */*' }), responseType: 'text', ...more
  });
}

describe('fileGetAdapter', () => {
  it('answers the body as text with the status, headers and final URL, sending the request headers and no credentials', async() => {
    const response = await get('/moved');

    expect(response.status).toBe(200);
    expect(response.data).toBe('one\ntwo\n');
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((response.request as XMLHttpRequest).responseURL).toBe(`${ base }/file.log`);
    expect(seen[0].headers.accept).toBe('text/plain, */*');
    expect(seen[0].method).toBe('GET');
  });

  it('resolves any status its validateStatus accepts and rejects the others with the response', async() => {
    await expect(get('/nothing', { validateStatus: () => true })).resolves.toMatchObject({ status: 404, data: 'not here' });
    const refused = await get('/nothing', { validateStatus: (status) => status < 400 }).catch((err) => err);

    expect(axios.isAxiosError(refused)).toBe(true);
    expect(refused.code).toBe(AxiosError.ERR_BAD_RESPONSE);
    expect(refused.response.status).toBe(404);
  });

  it('ends a request that outlasts its timeout as axios does (ECONNABORTED)', async() => {
    const err = await get('/hang', { timeout: 50 }).catch((e) => e);

    expect(axios.isAxiosError(err)).toBe(true);
    expect(err.code).toBe('ECONNABORTED');
  });

  it('cancels when the signal aborts, and sends nothing for a signal already aborted', async() => {
    const controller = new AbortController();
    const pending = get('/hang', { signal: controller.signal });

    setTimeout(() => controller.abort(), 20);
    expect(axios.isCancel(await pending.catch((e) => e))).toBe(true);

    seen.length = 0;
    expect(axios.isCancel(await get('/file.log', { signal: controller.signal }).catch((e) => e))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toHaveLength(0);
  });

  it('reports download progress, so a caller can stop a file that grows past its limit', async() => {
    const loaded: number[] = [];
    const response = await get('/big', { onDownloadProgress: (event) => loaded.push(event.loaded) });

    expect(response.data).toHaveLength(BIG.length);
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded[loaded.length - 1]).toBe(BIG.length);
  });

  it('rejects a dropped connection as a network error', async() => {
    // jsdom also reports the failure on its console, as a browser would.
    const console = jest.spyOn(global.console, 'error').mockImplementation(() => undefined);
    const err = await get('/drop').catch((e) => e);

    console.mockRestore();
    expect(err.code).toBe(AxiosError.ERR_NETWORK);
  });

  it('refuses what it does not do (other methods, a body, params) without sending anything', async() => {
    await expect(get('/file.log', { method: 'post', data: 'x' })).rejects.toMatchObject({ code: AxiosError.ERR_NOT_SUPPORT });
    await expect(get('/file.log', { params: { a: 1 } })).rejects.toMatchObject({ code: AxiosError.ERR_NOT_SUPPORT });
    expect(seen).toHaveLength(0);
  });
});
