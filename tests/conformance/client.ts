// Sends a scenario's request to a Steve: the real one (each user impersonated by its Rancher user
// id, as Rancher does: steve pkg/server/cli/clicontext.go --enable-header-auth) or the emulator
// (each user logged in with a bearer token).
import { ConformanceRequest, USER_IDS, UserName } from './scenario';

export type Credentials = Record<UserName, Record<string, string>>;

/** Each user's request headers, made from its name and Rancher user id. */
export async function credentialsFor(headers: (name: UserName, id: string) => Promise<Record<string, string>> | Record<string, string>): Promise<Credentials> {
  return {
    admin:   await headers('admin', USER_IDS.admin),
    viewer:  await headers('viewer', USER_IDS.viewer),
    editor:  await headers('editor', USER_IDS.editor),
    limited: await headers('limited', USER_IDS.limited),
    member:  await headers('member', USER_IDS.member),
  };
}

export async function send(base: string, credentials: Credentials, request: ConformanceRequest): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${ base }${ request.path }`, {
    method:  request.method,
    headers: {
      accept:         'application/json',
      'content-type': request.contentType ?? 'application/json',
      ...credentials[request.user],
    },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const text = await res.text();
  let body: unknown = text;

  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: kept as the text it was.
  }

  return { status: res.status, body };
}
