// What an answer for a changelog file or package list says about its source (domain README rule "Changelog sources").
// A Rancher without a changelog service answers, where a file was expected:
// - 400 `unknwon api: changelog` as text: the Elemental operator's server for any API but
//   registration and seedimage (rancher/elemental-operator pkg/server/server.go);
// - the dashboard's index.html with status 200: Rancher's not-found handler for a browser
//   (rancher/rancher pkg/ui/routes.go, emberIndexUnlessAPI);
// - 404: the operator of elemental-operator PR #891 before a ManagedOSChangelog is ready
//   (pkg/server/api_changelog.go), or a plain 404 from Rancher for a non-browser client.

/** What came back for one file request. */
export interface SourceAnswer {
  status: number;
  /** The Content-Type header, '' when none. */
  contentType: string;
  /** The start of the body (the first few hundred characters are enough). */
  body: string;
}

export type NoServiceReason = 'unknownApi' | 'notFound' | 'html';

export type AnswerClass =
  /** A file came back: parse it (a format error is that file's error). */
  | { kind: 'file' }
  /** This file is not there, but the source is (an explicit URL's 404). */
  | { kind: 'missing' }
  /** No changelog service answers there at all: one notice per channel, not per image. */
  | { kind: 'noService'; reason: NoServiceReason }
  /** Any other failure: that file's error (`html`: the answer was a web page, never a file). */
  | { kind: 'failed'; status: number; html?: true };

/** Where the URL came from: `default` is the operator's path the extension guesses. */
export type SourceKind = 'default' | 'channel' | 'version' | 'tar' | 'resource';

const HTML_START = /^\s*(<!doctype\b|<html[\s>]|<head[\s>])/i;
const UNKNOWN_API = /^\s*unkn(w)?o(w)?n api\b/i;

/** True when the body or its type says it is an HTML page (never a changelog, package list or tar). */
export function looksLikeHtml(answer: Pick<SourceAnswer, 'contentType' | 'body'>): boolean {
  return /^\s*text\/html\b/i.test(answer.contentType) || HTML_START.test(answer.body);
}

/**
 * Classifies one answer. A 404 on the guessed default path means the service is not there; on
 * a URL someone configured (channel template, version's changelogURL, package tar) it means only
 * that this file is missing. An HTML page, at any status, is never a file nor a missing file
 * (Rancher's index.html, a dev server's or proxy's 404 page): before the source served anything
 * (`sourceLive` false) it says the source is not a changelog service, afterwards it is that file's
 * failure. The operator's "unknwon api" is never a file either.
 */
export function classifySourceAnswer(answer: SourceAnswer, source: SourceKind, sourceLive = false): AnswerClass {
  const { status } = answer;
  const html = looksLikeHtml(answer);

  if (html && status !== 401 && status !== 403) {
    return sourceLive ? {
      kind: 'failed', status, html: true
    } : { kind: 'noService', reason: 'html' };
  }
  if (status >= 200 && status <= 299) {
    return { kind: 'file' };
  }
  if (status === 400 && UNKNOWN_API.test(answer.body)) {
    return { kind: 'noService', reason: 'unknownApi' };
  }
  if (status === 404) {
    return source === 'default' && !sourceLive ? { kind: 'noService', reason: 'notFound' } : { kind: 'missing' };
  }

  return { kind: 'failed', status };
}

/** The test result an administrator sees on the sources page for one URL. */
export type SourceTestOutcome = 'found' | 'notFound' | 'notAChangelog' | 'blocked' | 'cors' | 'failed';

/**
 * The outcome of testing one URL: `parsed` says whether the file parsed as what was expected.
 * `blocked` (the origin policy) and `cors` (the browser refused to read it) are decided by the
 * caller before any answer exists.
 */
export function sourceTestOutcome(answerClass: AnswerClass, parsed: boolean): SourceTestOutcome {
  switch (answerClass.kind) {
  case 'file':
    return parsed ? 'found' : 'notAChangelog';
  case 'missing':
    return 'notFound';
  case 'noService':
    return answerClass.reason === 'notFound' ? 'notFound' : 'notAChangelog';
  default:
    return 'failed';
  }
}
