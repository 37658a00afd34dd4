import type { LibraryKnowledge } from '@domain/run'
import { readContactIndex } from './library-contacts'
import { upsertCompanies, upsertContacts } from './library-ingest'
import { contactById, contactsByIds, matchContactIds, searchContacts } from './library-query'
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
    contactsByIds: async (ids: readonly string[]) => contactsByIds(ids, database),
    contactById: (id: string) => contactById(id, database),
    upsertContacts: (payloads: Record<string, unknown>[], source: Parameters<typeof upsertContacts>[1]) =>
      upsertContacts(payloads, source, database),
    upsertCompanies: (payloads: Record<string, unknown>[], source: Parameters<typeof upsertCompanies>[1]) =>
      upsertCompanies(payloads, source, database),
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
  }
}

export type LibraryService = ReturnType<typeof libraryService>

/** A call to the library worker, and its answer. */
export type LibraryCall = {
  [K in keyof LibraryService]: { id: number; method: K; args: Parameters<LibraryService[K]> }
}[keyof LibraryService]

export type LibraryAnswer =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; name: string; message: string }
