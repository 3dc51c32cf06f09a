import {
  changelogUrls, logUrl, packagesUrlBeside, parseAllowedOrigins, trustUrl
} from '../changelog-url';
import { CHANGELOG_URL_ANNOTATION } from '../../domain';

const SERVER = 'https://rancher.example.com';
const channelWith = (template: string) => ({ metadata: { annotations: { [CHANGELOG_URL_ANNOTATION]: template } } });

describe('changelogUrls', () => {
  it('uses the operator endpoint on the Rancher server when nothing else is set', () => {
    expect(changelogUrls({ name: 'base-v2.2.0-3.12-os' }, undefined, SERVER)).toMatchObject({
      log:      'https://rancher.example.com/elemental/changelog/base-v2.2.0-3.12-os/base-v2.2.0-3.12-os.updates.log',
      packages: 'https://rancher.example.com/elemental/changelog/base-v2.2.0-3.12-os/base-v2.2.0-3.12-os.packages',
      source:   'default',
    });
  });

  it('prefers the channel annotation template over the default, with {name} replaced everywhere', () => {
    const urls = changelogUrls({ name: 'v1' }, channelWith('https://cdn.example.com/logs/{name}/{name}.json'), SERVER);

    expect(urls).toMatchObject({
      log: 'https://cdn.example.com/logs/v1/v1.json', packages: 'https://cdn.example.com/logs/v1/v1.packages', source: 'channel'
    });
  });

  it('prefers the version changelogURL over the channel annotation', () => {
    const urls = changelogUrls({ name: 'v1', changelogURL: '/files/v1.updates.log?x=1' }, channelWith('https://cdn.example.com/{name}'), SERVER);

    expect(urls).toMatchObject({
      log: 'https://rancher.example.com/files/v1.updates.log?x=1', packages: 'https://rancher.example.com/files/v1.packages', source: 'version'
    });
  });

  it('escapes a name that would change the path', () => {
    const urls = changelogUrls({ name: '../x?y' }, undefined, SERVER);

    expect(urls.log).toBe('https://rancher.example.com/elemental/changelog/..%2Fx%3Fy/..%2Fx%3Fy.updates.log');
  });

  it('ignores an empty annotation', () => {
    expect(changelogUrls({ name: 'v1' }, channelWith('  '), SERVER).source).toBe('default');
  });

  it('names each source of a log once per template or folder, as logUrl alone does', () => {
    const template = channelWith('/files/{name}.updates.log');

    expect(changelogUrls({ name: 'v1' }, template, SERVER).logSource).toBe('channel:https://rancher.example.com/files/%7Bname%7D.updates.log');
    expect(changelogUrls({ name: 'v2' }, template, 'https://other.example.com').logSource).toBe('channel:https://other.example.com/files/%7Bname%7D.updates.log');
    expect(changelogUrls({ name: 'v1', changelogURL: 'https://cdn.example.com/a/v1.log?x' }, template, SERVER).logSource).toBe('version:https://cdn.example.com/a/');
    for (const [version, channel] of [[{ name: 'v1' }, undefined], [{ name: 'v1' }, template], [{ name: 'v1', changelogURL: '/x/v1.log' }, template]] as const) {
      const { log, source, logSource } = changelogUrls(version, channel, SERVER);

      expect(logUrl(version, channel, SERVER)).toEqual({
        log, source, logSource
      });
    }
  });
});

describe('packagesUrlBeside', () => {
  it('puts <name>.packages in the folder of the log', () => {
    expect(packagesUrlBeside('https://a.example/x/y/z.log#frag', 'v1')).toBe('https://a.example/x/y/v1.packages');
  });
});

describe('parseAllowedOrigins', () => {
  it('normalises comma-separated origins and drops what is not an http(s) URL', () => {
    expect(parseAllowedOrigins(' https://cdn.example.com/path , http://b.example:8080,javascript:alert(1),nonsense,')).toEqual([
      'https://cdn.example.com', 'http://b.example:8080'
    ]);
  });

  it('treats a missing setting as no origin', () => {
    expect(parseAllowedOrigins(undefined)).toEqual([]);
  });
});

describe('trustUrl', () => {
  it('trusts the Rancher server itself, with credentials', () => {
    expect(trustUrl(`${ SERVER }/elemental/changelog/a/a.updates.log`, SERVER, [])).toEqual({ trusted: true, sameOrigin: true });
  });

  it('trusts an allowed origin, without credentials', () => {
    expect(trustUrl('https://cdn.example.com/a', SERVER, ['https://cdn.example.com'])).toEqual({ trusted: true, sameOrigin: false });
  });

  it('refuses any other origin, including a look-alike host or another port', () => {
    for (const url of ['https://rancher.example.com.evil.io/a', 'https://rancher.example.com:8443/a', 'http://rancher.example.com/a']) {
      expect(trustUrl(url, SERVER, [])).toMatchObject({ trusted: false, reason: 'untrustedOrigin' });
    }
  });

  it('refuses javascript:, data: and file: URLs even when nothing else matters', () => {
    for (const url of ['javascript:alert(1)', 'data:text/plain,hi', 'file:///etc/passwd']) {
      expect(trustUrl(url, SERVER, [SERVER])).toMatchObject({ trusted: false, reason: 'notHttp' });
    }
  });

  it('refuses URLs carrying user info and URLs that do not parse', () => {
    expect(trustUrl('https://user:pw@rancher.example.com/a', SERVER, [])).toMatchObject({ trusted: false, reason: 'invalidUrl' });
    expect(trustUrl('not a url', SERVER, [])).toMatchObject({ trusted: false, reason: 'invalidUrl' });
  });
});
