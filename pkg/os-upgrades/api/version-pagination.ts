import { TYPE } from '../config';

/**
 * What `plugin.enableServerSidePagination` takes: the shell pages a type of the management store
 * only when told so (docs/shell-queries.md). Its own module: the entry imports it, and must not
 * import the query code.
 */
export const VERSION_PAGINATION = { management: { resources: { enableAll: false, enableSome: { enabled: [TYPE.VERSION] } } } };
