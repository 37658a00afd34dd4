import { libraryService, type LibraryAnswer, type LibraryCall, type LibraryService } from './library-service'
import { db, type LeadkeeperDb } from './schema'

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void }

/** Vue's reactive proxies do not clone: what holds one goes as plain data. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/**
 * Rows handed to the worker per call. A call's arguments are copied on the page as it is posted (10,000
 * payloads took 60–70 ms of the page's thread); a few thousand keep each copy to a frame or so, and
 * the page gets its turns between calls.
 */
const rowsPerCall = 2_000

/**
 * Result batches in groups of about `rowsPerCall` rows, each group whole batches: a twin's row and
 * the row it went with are in one batch, and stay in one call. Applying each group in a transaction
 * of its own is safe: applying batches again leaves the records as they were, which is also what
 * makes a crash before the acknowledgement harmless.
 */
function groupsOf<B extends { rows: readonly unknown[] }>(batches: readonly B[]): B[][] {
  const groups: B[][] = []
  let rows = Infinity
  for (const batch of batches) {
    if (rows >= rowsPerCall) {
      groups.push([])
      rows = 0
    }
    groups[groups.length - 1]!.push(batch)
    rows += batch.rows.length
  }
  return groups
}

/**
 * The library service in a worker (`src/workers/library.ts`), started on first use; the page only
 * sends calls and receives answers. `start` makes the worker: the app's bundle, or the bench's.
 */
export function workerLibrary(start: () => Worker): LibraryService & { prepare(): void; dispose(): void } {
  let worker: Worker | null = null
  const pending = new Map<number, Pending>()
  let next = 0

  function started(): Worker {
    if (worker) return worker
    const made = start()
    made.onmessage = (event: MessageEvent<LibraryAnswer>) => {
      const answer = event.data
      const waiting = pending.get(answer.id)
      if (!waiting) return
      pending.delete(answer.id)
      if (answer.ok) waiting.resolve(answer.result)
      else waiting.reject(Object.assign(new Error(answer.message), { name: answer.name }))
    }
    made.onerror = (event) => {
      event.preventDefault()
      for (const waiting of pending.values())
        waiting.reject(new Error(event.message || 'The library stopped.'))
      pending.clear()
      // The next call starts it again.
      worker = null
    }
    worker = made
    return made
  }

  function call<K extends keyof LibraryService>(
    method: K,
    args: Parameters<LibraryService[K]>,
  ): Promise<Awaited<ReturnType<LibraryService[K]>>> {
    const id = ++next
    return new Promise((resolve, reject) => {
      pending.set(id, {
        resolve: (result) => resolve(result as Awaited<ReturnType<LibraryService[K]>>),
        reject,
      })
      const message = { id, method, args } as LibraryCall
      try {
        started().postMessage(message)
      } catch (error) {
        // A reactive proxy among the arguments (a search's facets from the store, say): copied as
        // plain data. Everything else is cloned as it is, large batches included, with no copy first.
        if (error instanceof Error && error.name === 'DataCloneError') started().postMessage(plain(message))
        else {
          pending.delete(id)
          reject(error instanceof Error ? error : new Error(String(error)))
        }
      }
    })
  }

  return {
    searchContacts: (search) => call('searchContacts', [search]),
    matchContactIds: (search) => call('matchContactIds', [search]),
    contactsByIds: (ids) => call('contactsByIds', [ids]),
    contactById: (id) => call('contactById', [id]),
    upsertContacts: async (payloads, source) => {
      // A slice at a time: a person in two slices is found by the second through the first's commit.
      const ids: (string | null)[] = []
      for (let start = 0; start < payloads.length; start += rowsPerCall)
        ids.push(...(await call('upsertContacts', [payloads.slice(start, start + rowsPerCall), source])))
      return ids
    },
    upsertCompanies: async (payloads, source) => {
      const domains: (string | null)[] = []
      for (let start = 0; start < payloads.length; start += rowsPerCall)
        domains.push(...(await call('upsertCompanies', [payloads.slice(start, start + rowsPerCall), source])))
      return domains
    },
    knownIdentities: (identities) => call('knownIdentities', [identities]),
    libraryKnowledge: (identities) => call('libraryKnowledge', [identities]),
    applyResultBatches: async (listId, batches) => {
      let applied = 0
      for (const group of groupsOf(batches))
        applied += (await call('applyResultBatches', [listId, group])).applied
      return { applied }
    },
    applyKnownAnswers: (listId, decisions) => call('applyKnownAnswers', [listId, decisions]),
    /** Starts the worker and loads its code; the database and the index wait for the first call. */
    prepare: () => void started(),
    dispose: () => {
      worker?.terminate()
      worker = null
    },
  }
}

/** The app's library: `prepare` starts its worker ahead of use (none in process). */
type AppLibrary = LibraryService & { prepare?(): void }

let shared: AppLibrary | null = null

function createLibrary(): AppLibrary {
  // In a worker (the import worker checks rows against the library) the service runs where it is.
  const onPage = typeof document !== 'undefined' && typeof Worker === 'function'
  if (!onPage || import.meta.env.MODE === 'test') return libraryService(db)
  return workerLibrary(
    () => new Worker(new URL('../workers/library.ts', import.meta.url), { type: 'module' }),
  )
}

/**
 * The library of a database: the app's own in the library worker, on the page of a browser; any
 * other (a test's) in process, as is every library in unit tests and inside other workers.
 */
export function libraryOf(database: LeadkeeperDb = db): LibraryService {
  if (database !== db) return libraryService(database)
  shared ??= createLibrary()
  return shared
}

/**
 * Starts the library worker once the page is idle, so that the first search of people does not
 * wait for a worker to start and load its code.
 */
export function prepareLibrary(): void {
  if (typeof requestIdleCallback !== 'function') return
  requestIdleCallback(
    () => {
      shared ??= createLibrary()
      shared.prepare?.()
    },
    { timeout: 5_000 },
  )
}

/** Sets the app's library service: the bench's page, which loads the worker from its own bundle. */
export function provideLibrary(service: AppLibrary): void {
  shared = service
}
