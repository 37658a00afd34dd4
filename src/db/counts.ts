import type { Table } from 'dexie'

/** What `addCounts` needs of a set of count changes: each change's key, and the changes. */
export interface CountDelta<R extends { count: number }, K> {
  readonly keyOf: (record: R) => K
  /** The non-zero changes, each as a record whose `count` is the change. */
  records(): R[]
}

/**
 * Adds count changes to the stored counts kept beside the records they count (a list's facets, the
 * library's), in the transaction that changed the records. A count that reaches zero is deleted.
 */
export async function addCounts<R extends { count: number }, K>(
  table: Table<R, K>,
  changes: CountDelta<R, K>,
): Promise<void> {
  const records = changes.records()
  if (records.length === 0) return
  const keys = records.map(changes.keyOf)
  const stored = await table.bulkGet(keys)
  const kept: R[] = []
  const emptied: K[] = []
  records.forEach((change, at) => {
    const count = (stored[at]?.count ?? 0) + change.count
    if (count > 0) kept.push({ ...change, count })
    else emptied.push(keys[at]!)
  })
  await table.bulkPut(kept)
  if (emptied.length > 0) await table.bulkDelete(emptied)
}
