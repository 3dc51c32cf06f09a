import fc from 'fast-check';
import { classifySourceAnswer, looksLikeHtml, sourceTestOutcome, SourceKind } from '../index';

const INDEX_HTML = '<!DOCTYPE html>\n<html lang="en"><head><title>Rancher</title></head><body><div id="app"></div></body></html>';
const text = (status: number, body: string, contentType = 'text/plain; charset=utf-8') => ({
  status, body, contentType
});

describe('classifySourceAnswer', () => {
  it('reads the current operator\'s 400 "unknwon api: changelog" as no service (elemental-operator pkg/server/server.go)', () => {
    expect(classifySourceAnswer(text(400, 'unknwon api: changelog\n'), 'default')).toEqual({ kind: 'noService', reason: 'unknownApi' });
    expect(classifySourceAnswer(text(400, 'unknwon api: changelog\n'), 'channel')).toEqual({ kind: 'noService', reason: 'unknownApi' });
  });

  it('reads Rancher\'s index.html with status 200 as no service (rancher pkg/ui/routes.go emberIndexUnlessAPI)', () => {
    expect(classifySourceAnswer(text(200, INDEX_HTML, 'text/html; charset=utf-8'), 'default')).toEqual({ kind: 'noService', reason: 'html' });
    // Without a content type, the body alone says it.
    expect(classifySourceAnswer(text(200, `  ${ INDEX_HTML }`, ''), 'tar')).toEqual({ kind: 'noService', reason: 'html' });
  });

  it('a 404 on the guessed default path is no service; on a configured URL only that file is missing', () => {
    expect(classifySourceAnswer(text(404, 'changelog fleet-default/x is not ready'), 'default')).toEqual({ kind: 'noService', reason: 'notFound' });
    for (const source of ['channel', 'version', 'tar', 'resource'] as SourceKind[]) {
      expect(classifySourceAnswer(text(404, '404 page not found'), source)).toEqual({ kind: 'missing' });
    }
  });

  it('a web page at any status is never a file nor a missing file: a dev server\'s or proxy\'s 404 page says the source is not a changelog service', () => {
    // webpack-dev-server (express finalhandler) for a path it neither serves nor proxies.
    const devServer404 = '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET /changelog-files/x.updates.log</pre>\n</body>\n</html>\n';

    for (const source of ['default', 'channel', 'version', 'tar', 'resource'] as SourceKind[]) {
      expect(classifySourceAnswer(text(404, devServer404, 'text/html; charset=utf-8'), source)).toEqual({ kind: 'noService', reason: 'html' });
      expect(classifySourceAnswer(text(404, devServer404, ''), source)).toEqual({ kind: 'noService', reason: 'html' });
      expect(classifySourceAnswer(text(200, '<!doctype html><div id="app"></div>', 'application/octet-stream'), source)).toEqual({ kind: 'noService', reason: 'html' });
    }
  });

  it('once the source served files, a web page is that file\'s failure, never "missing"', () => {
    expect(classifySourceAnswer(text(404, '<html><body>404 Not Found</body></html>', 'text/html'), 'channel', true)).toEqual({
      kind: 'failed', status: 404, html: true
    });
    expect(classifySourceAnswer(text(200, 'kernel-default|0|6.4|1|x86_64', 'text/html'), 'channel', true)).toEqual({
      kind: 'failed', status: 200, html: true
    });
    // A plain 404 of a live source stays a missing file, also on the default path.
    expect(classifySourceAnswer(text(404, 'not found'), 'default', true)).toEqual({ kind: 'missing' });
  });

  it('no answer that looks like a web page is ever a file or missing (property)', () => {
    const page = fc.tuple(fc.constantFrom('<!DOCTYPE html>', '<!doctype HTML>', '<html>', '<html lang="en">', '<head>'), fc.string()).map(([start, rest]) => start + rest);

    fc.assert(fc.property(fc.integer({ min: 100, max: 599 }).filter((s) => s !== 401 && s !== 403), page, fc.constantFrom('default', 'channel', 'version', 'tar', 'resource') as fc.Arbitrary<SourceKind>, fc.boolean(), (status, body, source, live) => {
      const kind = classifySourceAnswer({
        status, body, contentType: ''
      }, source, live).kind;

      expect(kind === 'file' || kind === 'missing').toBe(false);
    }));
  });

  it('a real file is a file, even when it is broken (its format error stays that image\'s)', () => {
    expect(classifySourceAnswer(text(200, '[{"id":"SUSE-2024-1"}]', 'application/json'), 'default')).toEqual({ kind: 'file' });
    expect(classifySourceAnswer(text(200, '{not json', 'text/plain'), 'channel')).toEqual({ kind: 'file' });
  });

  it('other failures stay failures of that file: a 400 that is not the operator\'s, 401, 403, 500', () => {
    expect(classifySourceAnswer(text(400, 'bad request'), 'default')).toEqual({ kind: 'failed', status: 400 });
    expect(classifySourceAnswer(text(500, 'boom'), 'default')).toEqual({ kind: 'failed', status: 500 });
    expect(classifySourceAnswer(text(403, '<html>forbidden</html>', 'text/html'), 'channel')).toEqual({ kind: 'failed', status: 403 });
    expect(classifySourceAnswer(text(401, '{"message":"must authenticate"}', 'application/json'), 'default')).toEqual({ kind: 'failed', status: 401 });
  });

  it('never calls a non-HTML 2xx answer "no service" (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 200, max: 299 }), fc.string().filter((s) => !/^\s*</.test(s)), fc.constantFrom('default', 'channel', 'version', 'tar') as fc.Arbitrary<SourceKind>, (status, body, source) => {
      expect(classifySourceAnswer({
        status, body, contentType: 'application/json'
      }, source)).toEqual({ kind: 'file' });
    }));
  });
});

describe('looksLikeHtml', () => {
  it('knows a page by its type or its first tag', () => {
    expect(looksLikeHtml({ contentType: 'text/html', body: '' })).toBe(true);
    expect(looksLikeHtml({ contentType: '', body: '<html><body>' })).toBe(true);
    expect(looksLikeHtml({ contentType: 'text/plain', body: 'kernel-default|0|6.4|1|x86_64' })).toBe(false);
  });
});

describe('sourceTestOutcome', () => {
  it('names what came back for the sources page', () => {
    expect(sourceTestOutcome({ kind: 'file' }, true)).toBe('found');
    expect(sourceTestOutcome({ kind: 'file' }, false)).toBe('notAChangelog');
    expect(sourceTestOutcome({ kind: 'missing' }, false)).toBe('notFound');
    expect(sourceTestOutcome({ kind: 'noService', reason: 'notFound' }, false)).toBe('notFound');
    expect(sourceTestOutcome({ kind: 'noService', reason: 'html' }, false)).toBe('notAChangelog');
    expect(sourceTestOutcome({ kind: 'noService', reason: 'unknownApi' }, false)).toBe('notAChangelog');
    expect(sourceTestOutcome({ kind: 'failed', status: 500 }, false)).toBe('failed');
  });
});
