// Rancher's Norman API (/v3) as far as the dashboard uses it at boot and login, and the public
// login endpoints (/v1-public, /v3-public) of the local auth provider. Sources: rancher/rancher
// pkg/auth/providers/publicapi/handler.go (routes) and login.go, pkg/auth/tokens (the token
// object), and rancher/dashboard shell/store/auth.js (what the login page sends and reads).

import { Emulator } from '../core/emulator';
import { ApiError, unauthorized } from '../kube/errors';
import { RequestContext, jsonBody, sendJson } from '../core/http';
import { JsonObject, asObject, asString } from '../core/json';
import { normanSchemas } from '../steve/schemas';
import { PUBLIC_SETTINGS } from './seed';
import { Session, checkCsrf } from './sessions';
import { KubeObject } from '../kube/store';
import {
  USERS, User, findUser, principalIdOf, userActor
} from './users';

function normanCollection(ctx: RequestContext, resourceType: string, data: JsonObject[]): JsonObject {
  return {
    type: 'collection', resourceType, links: { self: `${ ctx.base }${ ctx.path }` }, actions: {}, pagination: { limit: 1000, total: data.length }, sort: { order: 'asc', reverse: '' }, data
  };
}

function normanError(ctx: RequestContext, error: ApiError): void {
  const steve = error.toSteve();

  sendJson(ctx, error.status, {
    type: 'error', baseType: 'error', status: error.status, code: steve.code, message: steve.message
  });
}

function principal(ctx: RequestContext, user: User, me: boolean): JsonObject {
  const id = principalIdOf(user);

  return {
    id,
    type:          'principal',
    baseType:      'principal',
    links:         { self: `${ ctx.base }/v3/principals/${ encodeURIComponent(id) }` },
    displayName:   user.displayName,
    name:          user.displayName,
    loginName:     user.username,
    me,
    memberOf:      false,
    principalType: 'user',
    provider:      'local',
    created:       null,
    creatorId:     null,
  };
}

function normanSetting(ctx: RequestContext, setting: KubeObject): JsonObject {
  return {
    id:         setting.metadata.name,
    type:       'setting',
    baseType:   'setting',
    links:      { self: `${ ctx.base }/v3/settings/${ setting.metadata.name }` },
    name:       setting.metadata.name,
    value:      setting.value,
    default:    setting.default,
    customized: setting.customized,
    source:     setting.source,
    created:    setting.metadata.creationTimestamp,
    uuid:       setting.metadata.uid,
  };
}

export class NormanApi {
  constructor(private readonly emulator: Emulator) {}

  /** POST /v1-public/login and /v3-public/localProviders/local?action=login. */
  login(ctx: RequestContext): void {
    try {
      checkCsrf(ctx);
      const body = asObject(jsonBody(ctx));
      const user = findUser(asString(body.username) ?? '', asString(body.password) ?? '');

      if (!user) {
        throw new ApiError(401, 'Unauthorized', 'authentication failed', undefined, { code: 'Unauthorized', message: 'authentication failed' });
      }
      const session = this.emulator.sessions.create(user);

      // rancher pkg/auth/providers/publicapi login.go (loginHandler.login, shared by /v1-public and
      // /v3-public): in cookie mode it sets R_SESS and writes nothing else, an empty 200.
      if ((asString(body.responseType) ?? 'cookie') === 'cookie') {
        this.emulator.sessions.setSessionCookie(ctx, session);
        ctx.res.statusCode = 200;
        ctx.res.end();

        return;
      }
      sendJson(ctx, 201, this.token(ctx, session, user));
    } catch (e) {
      normanError(ctx, e instanceof ApiError ? e : new ApiError(500, 'InternalError', String(e)));
    }
  }

  private token(ctx: RequestContext, session: Session, user: User): JsonObject {
    return {
      id:           session.token,
      type:         'token',
      baseType:     'token',
      links:        { self: `${ ctx.base }/v3/tokens/${ session.token }` },
      name:         session.token,
      token:        this.emulator.sessions.cookieValue(session),
      userId:       user.id,
      authProvider: 'local',
      description:  'UI session',
      expired:      false,
      isDerived:    false,
      created:      session.createdAt,
    };
  }

  authProviders(ctx: RequestContext): void {
    sendJson(ctx, 200, normanCollection(ctx, 'authProvider', [{
      id:        'local',
      type:      'localProvider',
      baseType:  'authProvider',
      links:     { self: `${ ctx.base }/v3-public/authProviders/local` },
      actions:   { login: `${ ctx.base }/v3-public/localProviders/local?action=login` },
      creatorId: null,
    }]));
  }

  /** POST /v1/logout and /v3/tokens?action=logout: ends the session and clears the cookie. */
  logout(ctx: RequestContext, session: Session | undefined): void {
    if (session) {
      this.emulator.sessions.remove(session.token);
    }
    this.emulator.sessions.clearSessionCookie(ctx);
    sendJson(ctx, 200, {});
  }

  async handle(ctx: RequestContext, user: User | undefined, session: Session | undefined): Promise<void> {
    try {
      checkCsrf(ctx);
      this.route(ctx, user, session);
    } catch (e) {
      normanError(ctx, e instanceof ApiError ? e : new ApiError(500, 'InternalError', String(e)));
    }
  }

  private route(ctx: RequestContext, user: User | undefined, session: Session | undefined): void {
    const [resource, id] = ctx.path.split('/').filter(Boolean).slice(1).map(decodeURIComponent);
    const settingType = this.emulator.types.require('management.cattle.io.setting');

    if (resource === 'schemas') {
      const all = normanSchemas(ctx.base, user ? userActor(user) : undefined);
      const found = id ? all.find((s) => String(s.id).toLowerCase() === id.toLowerCase()) : undefined;

      if (id && !found) {
        throw new ApiError(404, 'NotFound', `schema ${ id } not found`, undefined, { code: 'NotFound', message: `schema ${ id } not found` });
      }

      return sendJson(ctx, 200, found ?? normanCollection(ctx, 'schema', all));
    }
    if (resource === 'settings') {
      const settings = this.emulator.api.list(settingType).items.filter((s) => user || PUBLIC_SETTINGS.has(s.metadata.name));

      if (id) {
        const found = settings.find((s) => s.metadata.name === id);

        if (!found) {
          throw user ? new ApiError(404, 'NotFound', `settings.management.cattle.io "${ id }" not found`) : unauthorized();
        }

        return sendJson(ctx, 200, normanSetting(ctx, found));
      }

      return sendJson(ctx, 200, normanCollection(ctx, 'setting', settings.map((s) => normanSetting(ctx, s))));
    }
    if (resource === 'tokens' && ctx.method === 'POST' && ctx.url.searchParams.get('action') === 'logout') {
      return this.logout(ctx, session);
    }
    if (!user) {
      throw unauthorized();
    }
    switch (resource) {
    case 'principals': {
      const all = USERS.map((u) => principal(ctx, u, u.id === user.id));
      const meOnly = ctx.url.searchParams.get('me') === 'true';
      const list = meOnly ? all.filter((p) => p.me) : all;

      if (id) {
        const found = all.find((p) => p.id === id);

        if (!found) {
          throw new ApiError(404, 'NotFound', 'principal not found');
        }

        return sendJson(ctx, 200, found);
      }

      return sendJson(ctx, 200, normanCollection(ctx, 'principal', list));
    }
    case 'users': {
      const list = USERS.filter((u) => ctx.url.searchParams.get('me') !== 'true' || u.id === user.id).map((u) => ({
        id:                 u.id,
        type:               'user',
        baseType:           'user',
        links:              { self: `${ ctx.base }/v3/users/${ u.id }` },
        username:           u.username,
        name:               u.displayName,
        principalIds:       [principalIdOf(u)],
        me:                 u.id === user.id,
        enabled:            true,
        mustChangePassword: false,
      }));

      return sendJson(ctx, 200, normanCollection(ctx, 'user', list));
    }
    case 'authConfigs':
    case 'authconfigs':
      return sendJson(ctx, 200, normanCollection(ctx, 'authConfig', [{
        id: 'local', type: 'localConfig', baseType: 'authConfig', name: 'local', enabled: true, links: { self: `${ ctx.base }/v3/authConfigs/local` }
      }]));
    case 'tokens':
      return sendJson(ctx, 200, normanCollection(ctx, 'token', session ? [this.token(ctx, session, user)] : []));
    default:
      throw new ApiError(404, 'NotFound', `${ resource } not found`, undefined, { code: 'NotFound', message: 'Not Found' });
    }
  }
}
