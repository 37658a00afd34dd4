/**
 * A copy free of any Vue reactive proxy, as a worker's `postMessage` and IndexedDB's structured
 * clone require (a proxy does not clone). JSON data only: dates, typed arrays and `undefined` values
 * are not kept.
 */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}
