// When a page must re-list a type instead of trusting the shell's cache.
//
// The shell's findAll on a type it already holds only re-watches, with an empty revision
// (@rancher/shell plugins/dashboard-store/actions.js findAll), so subscribe.js sends no
// resourceVersion. With Rancher's SQL cache on, Steve starts such a watch from "now", with no
// initial events (rancher/steve pkg/stores/sqlproxy): whatever changed while the type was not
// watched is never sent, and the cached list stays stale. Without the SQL cache the watch starts
// with every object, so the same call is fresh; a re-list is right in both modes.
// After a websocket drop the shell re-watches from the newest revision it holds
// (subscribe.js reconnectWatches); a revision the server no longer keeps ends in a re-list by
// the shell itself ("too old resource version"). A page still re-lists after a reconnect, so a
// list is current however the server answers the re-watch.

/** A cached list must be fetched again: the shell holds it but is not watching it. */
export function mustRelist(cached: boolean, watching: boolean): boolean {
  return cached && !watching;
}
