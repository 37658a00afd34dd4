/**
 * The contract's limits a page needs without its schemas: the renderer imports these from here, so
 * that no page carries the validation library and its schemas (built when their module is loaded:
 * 25–150 ms of a start's first idle moments, when the list page's code was fetched ahead).
 */

/** Rows travel to the backend in batches of at most this many per call. */
export const stageBatchLimit = 10_000
