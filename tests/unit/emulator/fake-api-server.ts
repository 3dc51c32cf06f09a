// The plumbing of the tiny fake API servers the real-stack tests talk to: JSON bodies read, watches
// held open (and cut on close), a port of its own on loopback. Each test's server answers.
import http from 'http';
import { AddressInfo } from 'net';

export abstract class FakeHttpServer {
  /** The watch streams held open: a test writes events to them. */
  readonly watches: http.ServerResponse[] = [];
  url = '';

  protected readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];

    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => this.answer(req, res, chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined));
  });

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${ (this.server.address() as AddressInfo).port }`;
  }

  close(): Promise<void> {
    this.watches.forEach((w) => w.destroy());

    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Holds a `?watch=1` GET open as a watch stream (true), or leaves the request to the test (false). */
  protected heldAsWatch(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean {
    if (req.method !== 'GET' || url.searchParams.get('watch') !== '1') {
      return false;
    }
    res.writeHead(200);
    res.flushHeaders();
    this.watches.push(res);

    return true;
  }

  protected abstract answer(req: http.IncomingMessage, res: http.ServerResponse, body: any): void; // eslint-disable-line @typescript-eslint/no-explicit-any
}
