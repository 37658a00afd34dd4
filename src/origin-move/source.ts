import type {
  DatabaseShape,
  IndexShape,
  OriginSurvey,
  PageRequest,
  RecordPage,
  SourceAnswer,
  SourceRequest,
  StoreShape,
  StoredRecord,
} from '../../electron/shared/origin-move'
import { isStoreKey, roughSize } from './keys'

/** A page ends at whichever comes first: so many records, or about so many bytes. */
export interface PageBudget {
  records: number
  bytes: number
}

export const defaultBudget: PageBudget = { records: 2_000, bytes: 4 * 1024 * 1024 }

/** The localStorage keys the renderer writes (`src/stores/list-view.ts`, `src/features/lists/plan-limits.ts`). */
export const appStoragePrefix = 'leadkeeper.'

const done = <T>(request: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'))
  })

const keyPathOf = (keyPath: string | string[] | null): string | string[] | null =>
  Array.isArray(keyPath) ? [...keyPath] : keyPath

/**
 * Opens an existing database at whatever version it has. A name that vanished since it was listed
 * is not created: the upgrade that would create it is aborted.
 */
function openExisting(idb: IDBFactory, name: string): Promise<IDBDatabase | null> {
  return new Promise((resolve, reject) => {
    const request = idb.open(name)
    let created = false
    request.onupgradeneeded = () => {
      created = true
      request.transaction?.abort()
    }
    request.onsuccess = () => resolve(request.result)
    request.onerror = () =>
      created ? resolve(null) : reject(request.error ?? new Error(`Cannot open ${name}`))
  })
}

async function describe(database: IDBDatabase): Promise<DatabaseShape> {
  const names = [...database.objectStoreNames]
  if (names.length === 0) return { name: database.name, version: database.version, stores: [] }
  // Every request is made before any is awaited: the transaction stays active while they run.
  const transaction = database.transaction(names, 'readonly')
  const stores = names.map(async (name): Promise<StoreShape> => {
    const store = transaction.objectStore(name)
    const indexes: IndexShape[] = [...store.indexNames].map((indexName) => {
      const index = store.index(indexName)
      return {
        name: index.name,
        keyPath: keyPathOf(index.keyPath) ?? '',
        unique: index.unique,
        multiEntry: index.multiEntry,
      }
    })
    const count = done(store.count())
    return {
      name,
      keyPath: keyPathOf(store.keyPath),
      autoIncrement: store.autoIncrement,
      indexes,
      count: await count,
    }
  })
  return { name: database.name, version: database.version, stores: await Promise.all(stores) }
}

/**
 * Reads an origin's databases and the app's localStorage, as they are, without changing anything:
 * a description of every database (its version, stores, key paths, indexes and counts), then its
 * records a page at a time, in key order. Plain IndexedDB, so it runs in any page of that origin.
 */
export function createSource(idb: IDBFactory = indexedDB, storage: Storage | null = localStorage) {
  const open = new Map<string, IDBDatabase>()

  async function database(name: string): Promise<IDBDatabase> {
    const known = open.get(name)
    if (known) return known
    const opened = await openExisting(idb, name)
    if (!opened) throw new Error(`The database ${name} is gone.`)
    open.set(name, opened)
    return opened
  }

  async function survey(): Promise<OriginSurvey> {
    const databases: DatabaseShape[] = []
    for (const { name } of await idb.databases()) {
      if (!name) continue
      const opened = await openExisting(idb, name)
      if (!opened) continue
      open.set(name, opened)
      databases.push(await describe(opened))
    }
    const entries: Array<[string, string]> = []
    for (let index = 0; storage && index < storage.length; index += 1) {
      const key = storage.key(index)
      const value = key === null ? null : storage.getItem(key)
      if (key?.startsWith(appStoragePrefix) && value !== null) entries.push([key, value])
    }
    return { databases, localStorage: entries }
  }

  async function page(request: PageRequest, budget: PageBudget = defaultBudget): Promise<RecordPage> {
    if (request.after !== undefined && !isStoreKey(request.after)) throw new Error('Not a key to read after.')
    const opened = await database(request.database)
    const store = opened.transaction(request.store, 'readonly').objectStore(request.store)
    const range = request.after === undefined ? null : IDBKeyRange.lowerBound(request.after, true)
    return new Promise((resolve, reject) => {
      const records: StoredRecord[] = []
      let bytes = 0
      const cursor = store.openCursor(range)
      cursor.onerror = () => reject(cursor.error ?? new Error('IndexedDB cursor failed'))
      cursor.onsuccess = () => {
        const at = cursor.result
        if (!at) return resolve({ records, last: true })
        records.push({ key: at.primaryKey, value: at.value })
        bytes += roughSize(at.value)
        if (records.length >= budget.records || bytes >= budget.bytes) resolve({ records, last: false })
        else at.continue()
      }
    })
  }

  /** One request of the mover, answered as a value: a failure is a message, never a throw. */
  async function answer(request: SourceRequest, budget?: PageBudget): Promise<SourceAnswer> {
    try {
      if (request.kind === 'survey') return { ok: true, survey: await survey() }
      return { ok: true, page: await page(request, budget) }
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) }
    }
  }

  function close(): void {
    for (const opened of open.values()) opened.close()
    open.clear()
  }

  return { survey, page, answer, close }
}

export type OriginSource = ReturnType<typeof createSource>
