// `--request-log FILE`: every distinct Steve and Kubernetes request the emulator answers, and every
// distinct `/v1/subscribe` message, one JSON line each, so that tests/conformance/coverage.ts can
// check that the recordings of the real programs cover what the browser asked. It imitates no real
// system; the paths it logs are the ones Rancher hands to Steve and the Kubernetes API, and to a
// downstream cluster's proxy (rancher/rancher pkg/multiclustermanager/routes.go: /v1, /api, /apis,
// /k8s/clusters/<id>), and the messages are those rancher/steve pkg/server reads on /v1/subscribe
// (rancher/apiserver pkg/subscribe/handler.go).

import fs from 'fs';

/** Paths the real programs would answer (rancher/rancher pkg/multiclustermanager/routes.go): Steve (/v1), the Kubernetes API (/api, /apis) and a downstream cluster's proxy. */
const API_PATH = /^\/(v1(\/|$)|api(\/|$)|apis(\/|$)|k8s\/clusters\/)/;

export type LoggedRequest =
  | { method: string; path: string }
  | { socket: string; message: Record<string, unknown> };

export class RequestLog {
  private file?: string;
  private readonly seen = new Set<string>();

  open(file: string | undefined): void {
    this.file = file || undefined;
    this.seen.clear();
  }

  request(method: string, pathAndQuery: string): void {
    if (this.file && API_PATH.test(pathAndQuery) && !pathAndQuery.startsWith('/v1/uiplugins')) {
      this.write({ method, path: pathAndQuery });
    }
  }

  /** A subscribe message, on the socket at `socket` (`/v1/subscribe` or `/k8s/clusters/<id>/v1/subscribe`). */
  subscribe(socket: string, message: Record<string, unknown>): void {
    if (this.file) {
      this.write({ socket, message });
    }
  }

  private write(entry: LoggedRequest): void {
    const line = JSON.stringify(entry);

    if (this.file && !this.seen.has(line)) {
      this.seen.add(line);
      fs.appendFileSync(this.file, `${ line }\n`);
    }
  }
}

/** The emulator process's log (one per process: main.ts opens it from the options). */
export const requestLog = new RequestLog();
