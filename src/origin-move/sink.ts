import type { DatabaseShape, StoreShape, StoredRecord } from '../../electron/shared/origin-move'
import { isStoreKey } from './keys'

const settled = (transaction: IDBTransaction): Promise<void> =>
  new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve()
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'))
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'))
  })

/** Deletes a database of this origin; waits while another connection still holds it. */
export function deleteDatabase(idb: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = idb.deleteDatabase(name)
    request.onsuccess = () => resolve()
    request.onerror = () => reject(request.error ?? new Error(`Cannot delete ${name}`))
  })
}

/**
 * Makes a database of this origin exactly as the survey describes it, empty: whatever a move cut
 * short left under that name is deleted first, so a move always starts from nothing and can never
 * write a record twice. Its version is the source's own number, so the app's database layer sees
 * the version it left and runs its upgrades from there.
 */
export async function recreateDatabase(idb: IDBFactory, shape: DatabaseShape): Promise<IDBDatabase> {
  await deleteDatabase(idb, shape.name)
  return new Promise((resolve, reject) => {
    const request = idb.open(shape.name, shape.version)
    request.onupgradeneeded = () => {
      for (const store of shape.stores) {
        const created = request.result.createObjectStore(store.name, {
          keyPath: store.keyPath,
          autoIncrement: store.autoIncrement,
        })
        for (const index of store.indexes) {
          created.createIndex(index.name, index.keyPath, {
            unique: index.unique,
            multiEntry: index.multiEntry,
          })
        }
      }
    }
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error ?? new Error(`Cannot create ${shape.name}`))
    request.onblocked = () => reject(new Error(`${shape.name} is held open elsewhere.`))
  })
}

/**
 * Writes a page of records in one transaction, in the order read. `add`, not `put`: the store
 * starts empty, so a key met twice is a fault to stop at, not a record to overwrite.
 */
export async function writeRecords(
  database: IDBDatabase,
  store: StoreShape,
  records: StoredRecord[],
): Promise<void> {
  if (records.length === 0) return
  // Strict: on disk before it counts as written, since main marks the move done on these counts.
  const transaction = database.transaction(store.name, 'readwrite', { durability: 'strict' })
  const finished = settled(transaction)
  const target = transaction.objectStore(store.name)
  try {
    for (const record of records) {
      if (!isStoreKey(record.key)) throw new Error(`A record of ${store.name} has no valid key.`)
      // In-line keys come with the value; out-of-line ones are given beside it.
      if (store.keyPath === null) target.add(record.value, record.key)
      else target.add(record.value)
    }
  } catch (error) {
    transaction.abort()
    await finished.catch(() => undefined)
    throw error
  }
  await finished
}

/** How many records each store of a database holds. */
export function countRecords(database: IDBDatabase): Promise<Record<string, number>> {
  const names = [...database.objectStoreNames]
  if (names.length === 0) return Promise.resolve({})
  const transaction = database.transaction(names, 'readonly')
  const counts = names.map((name) => transaction.objectStore(name).count())
  return settled(transaction).then(() =>
    Object.fromEntries(names.map((name, index) => [name, counts[index]!.result])),
  )
}

/** The app's localStorage entries, set in this origin. */
export function writeStorage(storage: Storage | null, entries: Array<[string, string]>): void {
  for (const [key, value] of entries) storage?.setItem(key, value)
}
