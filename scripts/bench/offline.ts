/**
 * Keeps the bench's browser offline but for the emulator (the dashboard asks updates.rancher.io for
 * news): every other host name fails to resolve. Not with Playwright's `context.route`, which turns
 * the browser's HTTP cache off for the whole context (every request then goes through the
 * interception): a new tab would fetch every file again, which no browser does.
 */
export function onlyHostArg(baseUrl: string): string {
  return `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE ${ new URL(baseUrl).hostname }`;
}
