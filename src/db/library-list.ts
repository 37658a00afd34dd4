import type { DataKind } from '@domain/kinds'
import { splitFullName, type ColumnMapping } from '@domain/person'
import { blockTables, putRows, readRows } from './blocks'
import { contactsAtSlots, readContactIndex } from './library-contacts'
import { matchContactIds, type ContactFacet, type LibrarySearch } from './library-query'
import { contactAnswers } from './library-shape'
import { createListFromBatches } from './lists'
import { applyKnownAnswers } from './rows'
import { db as appDb, type LeadkeeperDb } from './schema'
import type { ContactRecord, ListRecord } from './records'

/**
 * A list of the library's people a search shows, ready to enrich further: its input columns are
 * what identifies each person to the service (names, company, domain, email, profile address),
 * mapped, and each row is linked to the person's record; a person the library holds answers for gets
 * them on their row, marked as from the library (so a run for phones after emails asks phones alone).
 */

/** The columns of a list made from the library, in order. */
export const libraryListColumns = [
  'First name',
  'Last name',
  'Full name',
  'Job title',
  'Company',
  'Company domain',
  'Email',
  'Network URL',
  'Country',
]

export const libraryListMapping: ColumnMapping = {
  first_name: 0,
  last_name: 1,
  full_name: 2,
  company_name: 4,
  company_domain: 5,
  email: 6,
  network_url: 7,
}

const text = (value: unknown) =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : ''

/** A person as a row of `libraryListColumns`: their own first and last names, else their full name split. */
export function libraryListRow(person: ContactRecord): string[] {
  const split = splitFullName(person.fullName)
  const first = text(person.data['contact_first_name']) || split.first
  const last = text(person.data['contact_last_name']) || split.last
  return [
    first,
    last,
    person.fullName,
    person.jobTitle,
    person.companyName,
    person.companyDomain,
    person.email,
    person.networkUrl,
    person.country,
  ]
}

/** People read and rows written at a time. */
const batchSize = 5_000

/**
 * Makes the list: the people in the order the library shows them (newest first), their rows
 * written and checked as an import's are, then each row given what the library holds of its person
 * and linked to them. A person forgotten while it runs is left out.
 */
export async function createListFromContacts(
  name: string,
  search: LibrarySearch<ContactFacet>,
  database: LeadkeeperDb = appDb,
): Promise<ListRecord> {
  const ids = await matchContactIds(search, database)
  if (ids.length === 0) throw new Error('No contact matches this search: there is nobody to make a list of.')
  /** Each row's person, by row. */
  const people: { id: string; kinds: DataKind[] }[] = []
  let read = 0
  const next = async () => {
    if (read >= ids.length) return null
    read += batchSize
    // The index brought up to date in its own transaction, then the people read by slot: the
    // list's own writes go between two batches.
    const index = await readContactIndex(database)
    const slots = ids.slice(read - batchSize, read).flatMap((id) => index.slotOfId(id) ?? [])
    const found = await contactsAtSlots(database, slots)
    for (const person of found)
      people.push({ id: person.id, kinds: Object.keys(contactAnswers(person)) as DataKind[] })
    return found.map(libraryListRow)
  }
  const list = await createListFromBatches(
    name,
    libraryListColumns,
    next,
    libraryListMapping,
    { fileName: 'Library', size: 0, encoding: 'utf-8', delimiter: ',', hasHeader: true },
    // The library's own people: its index, read here, says whom it knows.
    async (identities) => new Set((await readContactIndex(database)).byIdentity(identities).keys()),
    database,
  )
  for (let start = 0; start < people.length; start += batchSize) {
    const some = people
      .slice(start, start + batchSize)
      .map((person, at) => ({ ...person, index: start + at }))
    await applyKnownAnswers(
      list.id,
      some
        .filter((person) => person.kinds.length > 0)
        .map(({ index, id, kinds }) => ({
          index,
          twins: [],
          library: { contactId: id, kinds },
          outcome: 'answered' as const,
        })),
      database,
    )
    // A person the library holds no answer for (found by a search) is linked all the same.
    const unlinked = some.filter((person) => person.kinds.length === 0)
    if (unlinked.length === 0) continue
    await database.transaction('rw', blockTables(database), async () => {
      const rows = await readRows(
        database,
        list.id,
        unlinked.map((person) => person.index),
      )
      await putRows(
        database,
        list.id,
        unlinked.flatMap(({ index, id }) => {
          const row = rows.get(index)
          return row ? [{ ...row, contactId: id }] : []
        }),
      )
    })
  }
  return (await database.lists.get(list.id)) ?? list
}
