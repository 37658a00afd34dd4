/** Appends to a control log and drops the oldest entries past `limit`, so a long demo session stays small. */
export function appendBounded<T>(list: T[], item: T, limit: number): void {
  list.push(item)
  if (list.length > limit) list.splice(0, list.length - limit)
}
