import type { Table } from 'dexie'

/** What `addCounts` needs of a set of count changes: each change's key, and the changes. */
export interface CountDelta<R extends { count: number }, K> {
  readonly keyOf: (record: R) => K
  /** The non-zero changes, each as a record whose `count` is the change. */
  records(): R[]
}

/**
 * Counts kept beside the records they count (a list's facets, the library's): changes gathered in
 * memory by key, then added to the stored counts at once (`addCounts`), in the transaction that
 * changed the records. A count that reaches zero is deleted.
 */
export class CountChanges<R extends { count: number }, K> implements CountDelta<R, K> {
  private readonly changes = new Map<string, R>()

  constructor(readonly keyOf: (record: R) => K) {}

  protected change(record: R): void {
    const id = JSON.stringify(this.keyOf(record))
    const known = this.changes.get(id)
    if (known) known.count += record.count
    else this.changes.set(id, { ...record })
  }

  /** The non-zero changes, each as a record whose `count` is the change. */
  records(): R[] {
    return [...this.changes.values()].filter((record) => record.count !== 0)
  }
}

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
