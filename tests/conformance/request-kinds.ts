// The kind of a request to Steve or the Kubernetes API: what a recording must hold for the
// real programs' answer to it to be known. Two requests are of one kind when the real programs
// answer them by the same code path: the same method, the same type and path shape (names and
// namespaces left out), the same query parameters, the same fields filtered and sorted on (label
// keys left out: Steve's SQL cache indexes every label alike), and, for a subscribe message, the
// same socket, type, mode and whether it names a revision, a namespace, an id or a selector.
// tests/conformance/coverage.ts compares what the browser asked (the emulator's --request-log)
// with what the recordings hold.

import { isRealKubePath, steveRoute } from '../emulator/real-stack/routing';

const DOWNSTREAM = /^\/k8s\/clusters\/[^/]+(?=\/)/;

/** /v1 paths that are Rancher's own, not a Steve type (rancher/rancher pkg/multiclustermanager/routes.go). */
const RANCHER_V1 = ['/v1/logout'];

/** A Steve filter or sort field, with a label's key left out. */
function field(text: string): string {
  return text.replace(/^-/, '').replace(/^metadata\.labels\[[^\]]*\]/, 'metadata.labels[*]');
}

/**
 * `filter` terms (`a=b,c~d`: OR-ed within one parameter): each field with its operator (rancher/steve
 * pkg/stores/sqlpartition/queryparser: `=`, `==`, `!=`, `~`, `!~`, `<`, `>`, `in`, `notin`, a label's
 * presence, and its absence with a leading `!`).
 */
function filterShape(value: string): string {
  const terms = value.split(/,(?![^(]*\))/).map((term) => {
    const absent = term.startsWith('!') && !/^!=|^!~/.test(term) ? '!' : '';
    const body = term.slice(absent.length);
    const match = /^(.*?)(\s+(?:in|notin)\s+|!=|==|!~|=|~|<|>)/i.exec(body);
    const operator = match ? match[2].trim().toUpperCase() : '';

    return `${ absent }${ field(match ? match[1] : body) }${ /^[A-Z]/.test(operator) ? ` ${ operator }` : operator }`;
  });

  // A filter OR-ing one field with itself n times (names of a page) is one kind whatever n.
  return [...new Set(terms)].sort().join(',');
}

function queryShape(search: URLSearchParams): string {
  const parts = [...search.entries()].map(([key, value]) => {
    if (key === 'filter') {
      return `filter:${ filterShape(value) }`;
    }
    if (key === 'sort') {
      return `sort:${ value.split(',').map((s) => `${ s.startsWith('-') ? '-' : '' }${ field(s) }`).join(',') }`;
    }
    if (key === 'projectsornamespaces') {
      return `projectsornamespaces:${ value.startsWith('!') ? 'not' : 'in' }`;
    }

    return key;
  });

  return [...new Set(parts)].sort().join('&');
}

/** `/api/v1/namespaces/x/pods/y/log` → `/api/v1/namespaces/*\/pods/*\/log`. */
function kubePathShape(path: string): string {
  const segments = path.split('/').filter(Boolean);
  const prefix = segments[0] === 'api' ? segments.slice(0, 2) : segments.slice(0, 3);
  const rest = segments.slice(prefix.length);
  const out = [...prefix];

  if (rest[0] === 'namespaces' && rest.length > 2) {
    out.push('namespaces', '*');
    rest.splice(0, 2);
  }
  rest.forEach((segment, i) => out.push(i === 1 ? '*' : segment));

  return `/${ out.join('/') }`;
}

/** `/v1/<type>/a/b` → `/v1/<type>/*\/*`: a Steve path names its type, then a namespace and a name, or a name. */
function stevePathShape(path: string): string {
  const [, type, ...rest] = path.split('/').filter(Boolean);

  return ['', 'v1', decodeURIComponent(type ?? ''), ...rest.map(() => '*')].join('/');
}

/** The kind of a request, or undefined when the real programs would not answer it (Rancher's own parts: login, /v3, settings…). */
export function requestKind(method: string, pathAndQuery: string): string | undefined {
  const url = new URL(pathAndQuery, 'http://x');
  const downstream = DOWNSTREAM.exec(url.pathname)?.[0];
  const path = downstream ? url.pathname.slice(downstream.length) : url.pathname;
  const where = downstream ? '/k8s/clusters/*' : '';
  const query = queryShape(url.searchParams);
  const suffix = query ? `?${ query }` : '';

  if (path === '/v1' || path.startsWith('/v1/')) {
    if (!downstream && (steveRoute(path) === 'emulator' || RANCHER_V1.includes(path))) {
      return undefined;
    }

    return `${ method } ${ where }${ stevePathShape(path) }${ suffix }`;
  }
  if (isRealKubePath(path)) {
    return `${ method } ${ where }${ kubePathShape(path) }${ suffix }`;
  }

  return undefined;
}

/** The kind of a subscribe message on the socket at `socket`, or undefined for a type the real programs do not serve. */
export function subscribeKind(socket: string, message: Record<string, unknown>): string | undefined {
  const type = typeof message.resourceType === 'string' ? message.resourceType : '';
  const downstream = DOWNSTREAM.test(socket);

  if (!type || (!downstream && steveRoute(`/v1/${ type }`) === 'emulator')) {
    return undefined;
  }
  const named = ['namespace', 'id', 'selector'].filter((key) => message[key]);
  const revision = message.resourceVersion ? 'revision' : 'no revision';
  const what = message.stop === true ? 'stop' : `${ message.mode ?? 'objects' } ${ revision }`;

  return `WATCH ${ downstream ? '/k8s/clusters/*/v1/subscribe' : '/v1/subscribe' } ${ type } ${ what }${ named.length ? ` by ${ named.join(',') }` : '' }`;
}
