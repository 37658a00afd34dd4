import type { LibraryKnowledge } from '@domain/run'
import { readContactIndex } from './library-contacts'
import { upsertCompanies, upsertContacts } from './library-ingest'
import {
  contactById,
  contactsByIds,
  contactSearchFacetCounts,
  matchContactIds,
  searchContacts,
} from './library-query'
import { contactForgetPlan, forgetContact } from './library-forget'
import { createListFromContacts } from './library-list'
import { changedInList, personRows } from './library-pages'
import { applyKnownAnswers, applyResultBatches } from './rows'
import type { LeadkeeperDb } from './schema'

/**
 * Everything that needs the index of the library's people (`contact-index.ts`): searching and reading
 * people, filing what the service found, and writing a list run's answers with the people they name.
 * The app runs it in the library worker (`library-client.ts`), so that the index, a few hundred
 * megabytes at a million people, and the work of keeping it are off the page; unit tests run it in
 * process. Companies and the kept counts need no index and are read on the page.
 */
export function libraryService(database: LeadkeeperDb) {
  return {
    searchContacts: (search: Parameters<typeof searchContacts>[0]) => searchContacts(search, database),
    matchContactIds: (search: Parameters<typeof matchContactIds>[0]) => matchContactIds(search, database),
    /** The facet counts of a search of people (`contactSearchFacetCounts`). */
    contactFacetCounts: (search: Parameters<typeof contactSearchFacetCounts>[0]) =>
      contactSearchFacetCounts(search, database),
    contactsByIds: async (ids: readonly string[]) => contactsByIds(ids, database),
    contactById: (id: string) => contactById(id, database),
    /** The list rows a person's answers are on (`personRows`): reads lists' company columns. */
    personRows: (id: string) => personRows(id, database),
    /** People of a list whose latest answer changed them (`changedInList`). */
    changedInList: (listId: string) => changedInList(listId, database),
    upsertContacts: (payloads: Record<string, unknown>[], source: Parameters<typeof upsertContacts>[1]) =>
      upsertContacts(payloads, source, database),
    upsertCompanies: (payloads: Record<string, unknown>[], source: Parameters<typeof upsertCompanies>[1]) =>
      upsertCompanies(payloads, source, database),
    /**
     * The whole index read ahead, where a search's count, an import's check or a run's estimate
     * will soon need it: a million people's keys take one to two seconds to read the first time
     * after a start, every later read only what changed.
     */
    readIndexAhead: async (): Promise<void> => {
      await readContactIndex(database)
    },
    /** Which of these identities ('first last@domain', lower-cased) the library already holds. */
    knownIdentities: async (identities: readonly string[]): Promise<string[]> => [
      ...(await readContactIndex(database)).byIdentity(identities).keys(),
    ],
    /** What the library holds about these identities, for a run's decisions: people with answers only. */
    libraryKnowledge: async (identities: readonly string[]): Promise<[string, LibraryKnowledge][]> => {
      const index = await readContactIndex(database)
      const known: [string, LibraryKnowledge][] = []
      for (const [identity, slot] of index.byIdentity(identities.filter(Boolean))) {
        const answers = index.answersAt(slot)
        if (Object.keys(answers).length > 0) known.push([identity, { contactId: index.idAt(slot), answers }])
      }
      return known
    },
    applyResultBatches: (listId: string, batches: Parameters<typeof applyResultBatches>[1]) =>
      applyResultBatches(listId, batches, database),
    applyKnownAnswers: (listId: string, decisions: Parameters<typeof applyKnownAnswers>[1]) =>
      applyKnownAnswers(listId, decisions, database),
    /** A list of the people a search shows, ready to enrich further (`library-list.ts`). */
    createListFromContacts: (name: string, search: Parameters<typeof createListFromContacts>[1]) =>
      createListFromContacts(name, search, database),
    /** What forgetting a person would clear, before the user is asked (`library-forget.ts`). */
    contactForgetPlan: (id: string) => contactForgetPlan(id, database),
    forgetContact: (id: string) => forgetContact(id, database),
  }
}

export type LibraryService = ReturnType<typeof libraryService>

/**
 * A call to the library worker, and its answer. `staged`: the argument at that place is the items
 * of the call's parts (`LibraryPart`), sent before it, in order.
 */
export type LibraryCall = {
  [K in keyof LibraryService]: { id: number; method: K; args: Parameters<LibraryService[K]>; staged?: number }
}[keyof LibraryService]

/** Part of a large argument of call `id`, sent ahead of the call itself. */
export interface LibraryPart {
  id: number
  part: unknown[]
}

export type LibraryAnswer =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; name: string; message: string }

/**
 * What the library worker does with each message: a part is kept until its call comes, a call runs
 * on the service with its staged argument filled in, and its answer (or error, by name) is replied.
 */
export function libraryReceiver(service: LibraryService, reply: (answer: LibraryAnswer) => void) {
  const staging = new Map<number, unknown[]>()
  return (message: LibraryCall | LibraryPart): void => {
    if ('part' in message) {
      const staged = staging.get(message.id) ?? []
      for (const item of message.part) staged.push(item)
      staging.set(message.id, staged)
      return
    }
    const { id, method, staged } = message
    const args: unknown[] = [...message.args]
    if (staged !== undefined) {
      args[staged] = staging.get(id) ?? []
      staging.delete(id)
    }
    const failure = (error: unknown): LibraryAnswer => ({
      id,
      ok: false,
      name: error instanceof Error ? error.name : 'Error',
      message: error instanceof Error ? error.message : String(error),
    })
    // An error of one call is that call's answer: thrown out of this handler it would end the
    // worker, and every other call waiting on it with it; an answer that cannot be copied is one too.
    const send = (answer: LibraryAnswer): void => {
      try {
        reply(answer)
      } catch (error) {
        reply(failure(error))
      }
    }
    const run = service[method] as ((...given: unknown[]) => Promise<unknown>) | undefined
    new Promise<unknown>((resolve) => {
      if (typeof run !== 'function') throw new Error(`The library has no call "${String(method)}".`)
      resolve(run(...args))
    }).then(
      (result) => send({ id, ok: true, result }),
      (error: unknown) => send(failure(error)),
    )
  }
}

/** What the library worker receives: calls, their parts, and ports from other workers. */
export type ToLibrary = LibraryCall | LibraryPart | { connect: MessagePort }

/**
 * The library worker's own receiver: its page's calls, answered by `reply`, and ports from other
 * workers (the import worker's), whose calls are answered on the port they came by.
 */
export function libraryWorkerReceiver(service: LibraryService, reply: (answer: LibraryAnswer) => void) {
  const receive = libraryReceiver(service, reply)
  return (message: ToLibrary): void => {
    if (!('connect' in message)) return receive(message)
    const port = message.connect
    const fromPort = libraryReceiver(service, (answer) => port.postMessage(answer))
    port.onmessage = (event: MessageEvent<LibraryCall | LibraryPart>) => fromPort(event.data)
  }
}
