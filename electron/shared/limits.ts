/**
 * The contract's limits a page needs without its schemas: the renderer imports these from here, so
 * that no page carries the validation library and its schemas: they are built when their module is
 * loaded, a long task in a start's first idle moments once the list page's code is fetched ahead
 * (`npm run bench -- --only startup`: the longest page task after the shell shows).
 */

/** Rows travel to the backend in batches of at most this many per call. */
export const stageBatchLimit = 10_000
