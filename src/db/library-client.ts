import {
  libraryService,
  type LibraryAnswer,
  type LibraryCall,
  type LibraryPart,
  type LibraryService,
  type ToLibrary,
} from './library-service'
import { db, type LeadkeeperDb } from './schema'
import type { KnownIdentities, LibraryKnowledgeOf } from './lists'
import { plain } from './plain'
import { nextTurn } from './turns'

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void }

/**
 * Rows copied to the worker per message. Arguments are copied on the page as they are posted (a
 * large call in one message holds the page), so a large one goes in parts with a turn for the page
 * between, and the worker runs the call on the whole, in one transaction as in process.
 */
const rowsPerPart = 2_000

/** A large argument of a call: which one, and how many rows each of its items weighs. */
interface Large {
  at: number
  items: readonly unknown[]
  rows(item: unknown): number
}

/** The items of a large argument in parts of about `rowsPerPart` rows (an item is never cut). */
function partsOf(large: Large): unknown[][] {
  const parts: unknown[][] = []
  let rows = Infinity
  for (const item of large.items) {
    if (rows >= rowsPerPart) {
      parts.push([])
      rows = 0
    }
    parts[parts.length - 1]!.push(item)
    rows += large.rows(item)
  }
  return parts
}

/** The library as a worker of its own, for the page; or a port to it, for another worker. */
export type LibraryEndpoint = Worker | MessagePort

/**
 * The library service in a worker (`src/workers/library.ts`), started on first use; the caller only
 * sends calls and receives answers. `start` makes the worker (the app's bundle, or the bench's) or
 * gives a port to it (in the import worker).
 */
export function workerLibrary(start: () => LibraryEndpoint): LibraryService & {
  prepare(): void
  connect(): MessagePort
  dispose(): void
} {
  let worker: LibraryEndpoint | null = null
  const pending = new Map<number, Pending>()
  let next = 0

  function started(): LibraryEndpoint {
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
    if ('terminate' in made)
      made.onerror = (event) => {
        event.preventDefault()
        // A worker that failed to load or threw is let go whole: the next call starts a new one.
        made.terminate()
        for (const waiting of pending.values())
          waiting.reject(new Error(event.message || 'The library stopped.'))
        pending.clear()
        worker = null
      }
    worker = made
    return made
  }

  /** Posts a message as it is; one holding a reactive proxy (a search's facets from a store) as plain data. */
  function post(message: LibraryCall | LibraryPart): void {
    try {
      started().postMessage(message)
    } catch (error) {
      if (!(error instanceof Error && error.name === 'DataCloneError')) throw error
      started().postMessage(plain(message))
    }
  }

  async function call<K extends keyof LibraryService>(
    method: K,
    args: Parameters<LibraryService[K]>,
    large?: Large,
  ): Promise<Awaited<ReturnType<LibraryService[K]>>> {
    const id = ++next
    const answered = new Promise<Awaited<ReturnType<LibraryService[K]>>>((resolve, reject) => {
      pending.set(id, {
        resolve: (result) => resolve(result as Awaited<ReturnType<LibraryService[K]>>),
        reject,
      })
    })
    try {
      const parts = large ? partsOf(large) : []
      if (large && parts.length > 1) {
        for (const [at, part] of parts.entries()) {
          if (at > 0) await nextTurn()
          post({ id, part })
        }
        const sent: unknown[] = [...args]
        sent[large.at] = []
        post({ id, method, args: sent, staged: large.at } as LibraryCall)
      } else post({ id, method, args } as LibraryCall)
    } catch (error) {
      pending.delete(id)
      throw error
    }
    return answered
  }

  const payloads = (items: readonly unknown[]): Large => ({ at: 0, items, rows: () => 1 })

  return {
    searchContacts: (search) => call('searchContacts', [search]),
    matchContactIds: (search) => call('matchContactIds', [search]),
    contactFacetCounts: (search) => call('contactFacetCounts', [search]),
    contactsByIds: (ids) => call('contactsByIds', [ids]),
    contactById: (id) => call('contactById', [id]),
    personRows: (id) => call('personRows', [id]),
    changedInList: (listId) => call('changedInList', [listId]),
    upsertContacts: (found, source) => call('upsertContacts', [found, source], payloads(found)),
    upsertCompanies: (found, source) => call('upsertCompanies', [found, source], payloads(found)),
    readIndexAhead: () => call('readIndexAhead', []),
    knownIdentities: (identities) => call('knownIdentities', [identities]),
    libraryKnowledge: (identities) => call('libraryKnowledge', [identities]),
    applyResultBatches: (listId, batches) =>
      call('applyResultBatches', [listId, batches], {
        at: 1,
        items: batches,
        rows: (batch) => (batch as (typeof batches)[number]).rows.length,
      }),
    applyKnownAnswers: (listId, decisions) => call('applyKnownAnswers', [listId, decisions]),
    createListFromContacts: (name, search) => call('createListFromContacts', [name, search]),
    contactForgetPlan: (id) => call('contactForgetPlan', [id]),
    forgetContact: (id) => call('forgetContact', [id]),
    /** Starts the worker: it loads its code and reads the newest people's keys (`primeContactIndex`). */
    prepare: () => void started(),
    /**
     * A port to the library worker for another worker (the import worker checks its rows against
     * the library with it): the same index, not a second copy of it in that worker.
     */
    connect: () => {
      const channel = new MessageChannel()
      const message: ToLibrary = { connect: channel.port1 }
      started().postMessage(message, [channel.port1])
      return channel.port2
    },
    dispose: () => {
      if (worker && 'terminate' in worker) worker.terminate()
      else worker?.close()
      worker = null
    },
  }
}

/**
 * The library for another worker (the import worker): the library worker through `port`, its reads
 * answered in process instead should the worker not answer one within `deadlineMs` (a library worker
 * gone mid-import would otherwise leave the import waiting for ever). Writes go by the port only: a
 * late one must not be made twice.
 */
export function portLibrary(port: MessagePort, database: LeadkeeperDb, deadlineMs = 60_000): LibraryService {
  const remote = workerLibrary(() => port)
  const local = libraryService(database)
  let lost = false
  function guarded<A extends unknown[], R>(
    viaPort: (...args: A) => Promise<R>,
    inProcess: (...args: A) => Promise<R>,
  ): (...args: A) => Promise<R> {
    return async (...args) => {
      if (lost) return inProcess(...args)
      let timer: ReturnType<typeof setTimeout> | undefined
      const late = new Promise<typeof lateMark>(
        (resolve) => (timer = setTimeout(() => resolve(lateMark), deadlineMs)),
      )
      const answer = await Promise.race([viaPort(...args), late])
      clearTimeout(timer)
      if (answer !== lateMark) return answer
      lost = true
      return inProcess(...args)
    }
  }
  return {
    ...remote,
    knownIdentities: guarded(remote.knownIdentities, local.knownIdentities),
    libraryKnowledge: guarded(remote.libraryKnowledge, local.libraryKnowledge),
  }
}

const lateMark = Symbol('late')

/** The app's library: `prepare` starts its worker ahead of use, `connect` gives a port to it (none in process). */
type AppLibrary = LibraryService & { prepare?(): void; connect?(): MessagePort }

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

/** Who the app's library knows, for list code that checks rows (`KnownIdentities`). */
export function knownToLibrary(database: LeadkeeperDb = db): KnownIdentities {
  return async (identities) => new Set(await libraryOf(database).knownIdentities(identities))
}

/** What the app's library holds about people, for a run's plan (`LibraryKnowledgeOf`). */
export function libraryKnowledgeOf(database: LeadkeeperDb = db): LibraryKnowledgeOf {
  return async (identities) => new Map(await libraryOf(database).libraryKnowledge(identities))
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

/**
 * Reads the index of the library's people ahead, once the page is idle, where the user is about to
 * need it whole: the library's page (a search's count and facets), an import's preview (its rows'
 * check against the library), a list's run panel (a run's estimate). Read once, it is kept.
 */
export function readLibraryAhead(): void {
  const read = (): void => {
    shared ??= createLibrary()
    shared.readIndexAhead().catch(() => undefined)
  }
  if (typeof requestIdleCallback === 'function') requestIdleCallback(read, { timeout: 2_000 })
  else read()
}

/** A port to the app's library worker for another worker; none where the library runs in process. */
export function libraryPort(): MessagePort | undefined {
  shared ??= createLibrary()
  return shared.connect?.()
}

/** Sets the app's library service: the bench's page, which loads the worker from its own bundle. */
export function provideLibrary(service: AppLibrary): void {
  shared = service
}
