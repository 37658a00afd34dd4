import { libraryService, type LibraryAnswer, type LibraryCall, type LibraryService } from './library-service'
import { db, type LeadkeeperDb } from './schema'

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void }

/** Vue's reactive proxies do not clone: what the page hands over goes as plain data. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/**
 * The library service in a worker (`src/workers/library.ts`), started on first use; the page only
 * sends calls and receives answers. `start` makes the worker: the app's bundle, or the bench's.
 */
export function workerLibrary(start: () => Worker): LibraryService & { dispose(): void } {
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
      started().postMessage(message)
    })
  }

  return {
    searchContacts: (search) => call('searchContacts', [plain(search)]),
    matchContactIds: (search) => call('matchContactIds', [plain(search)]),
    contactsByIds: (ids) => call('contactsByIds', [plain(ids)]),
    contactById: (id) => call('contactById', [id]),
    upsertContacts: (payloads, source) => call('upsertContacts', [plain(payloads), plain(source)]),
    upsertCompanies: (payloads, source) => call('upsertCompanies', [plain(payloads), plain(source)]),
    knownIdentities: (identities) => call('knownIdentities', [plain(identities)]),
    libraryKnowledge: (identities) => call('libraryKnowledge', [plain(identities)]),
    // Batches come as the backend sent them: plain already, and large.
    applyResultBatches: (listId, batches) => call('applyResultBatches', [listId, batches]),
    applyKnownAnswers: (listId, decisions) => call('applyKnownAnswers', [listId, plain(decisions)]),
    dispose: () => {
      worker?.terminate()
      worker = null
    },
  }
}

let shared: LibraryService | null = null

function createLibrary(): LibraryService {
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

/** Sets the app's library service: the bench's page, which loads the worker from its own bundle. */
export function provideLibrary(service: LibraryService): void {
  shared = service
}
