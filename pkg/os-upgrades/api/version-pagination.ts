import { TYPE } from '../config';

/**
 * What `plugin.enableServerSidePagination` takes: the shell pages a type of the management store
 * only when told so (docs/shell-queries.md). Its own module: the entry imports it, and must not
 * import the query code. Versions (read a channel or a few names at a time) and pools (the pools
 * list reads one page of them, api/pool-pages.ts).
 */
export const VERSION_PAGINATION = { management: { resources: { enableAll: false, enableSome: { enabled: [TYPE.VERSION, TYPE.IMAGE] } } } };
