import { blockTables, listBlockRange, putRows, readRows } from './blocks'
import { isPacked, rowBlockOf } from './block-shape'
import { contactBlockOf, contactBlockSize, contactKeys } from './contact-index'
import { addCounts } from './counts'
import { applyTally, countTables, descriptiveFacets, FacetTally } from './facet-tally'
import {
  contactIndex,
  contactTables,
  readContactBlocks,
  readingPeople,
  removeContacts,
} from './library-contacts'
import { companyFromPayload, contactFromPayload } from './library-ingest'
import { LibraryTally } from './library-shape'
import { noteChange } from './list-ops'
import { db as appDb, type LeadkeeperDb } from './schema'
import type { ContactRecord, ListOp, StoredBlock, StoredRow } from './records'

/**
 * Forgetting a person or a company, as the GDPR's right to erasure asks: what the library holds of
 * them goes, and so does every answer about a person that list rows hold, in one transaction. The
 * rows stay, with the cells the user imported: those are the user's own file; their answer, and any
 * earlier answer about them a row kept, is gone and they read as not yet sent. The rows a list's
 * history keeps for its undo lose the same, a search's rows naming the person go, and each list
 * touched notes the forget in its history, as a change that cannot be undone: what it removed is
 * gone. The note does not name the person.
 */

/** The list rows that hold a person's answer, or link to their record, by list. */
export interface HeldRows {
  listId: string
  name: string
  /** Rows linked to the person, in order. */
  indexes: number[]
  /** Of those, the rows holding an answer about them. */
  answered: number
}

export interface ContactForgetPlan {
  found: boolean
  /** Rows holding the person's answer, every list together. */
  rows: number
  lists: HeldRows[]
  /** Rows of lead searches that found the person. */
  searchResults: number
}

export interface ForgetOutcome {
  /** False when nobody (or no company) had that id: nothing was changed. */
  forgotten: boolean
  /** Answers cleared from list rows. */
  rows: number
  lists: number
  searchResults: number
}

/** Whether a row holds the person's answer, links to their record, or keeps an earlier answer about them. */
function linksTo(row: StoredRow | undefined, person: ContactRecord): boolean {
  if (!row) return false
  if (row.contactId === person.id) return true
  if (
    Object.values(row.origins ?? {}).some(
      (origin) => origin?.via === 'library' && origin.contactId === person.id,
    )
  )
    return true
  return (row.earlier ?? []).some(
    (answer) => answer.result !== undefined && namesPerson(answer.result, person),
  )
}

/** Whether the row's answer, or an earlier one it keeps, is about the person (not only a link). */
function holdsAnswer(row: StoredRow, person: ContactRecord): boolean {
  const { result, earlier } = withoutPerson(row, person)
  return (
    (row.result !== undefined && result === undefined) || (earlier?.length ?? 0) < (row.earlier?.length ?? 0)
  )
}

/**
 * What of a block's text finds a person: their id, their contact id as the service wrote it, their
 * email. A block whose strings hold none of these holds nothing of them.
 */
function traces(person: ContactRecord): string[] {
  const contactId = person.data['contact_id']
  return [
    person.id,
    person.email,
    contactId === undefined || contactId === null ? '' : String(contactId),
  ].filter((trace) => trace !== '')
}

/**
 * The rows of one list linked to a person. A block is decoded only when its text holds the id: a
 * packed block's rows were never answered, and a coded block's strings hold every string its rows
 * hold, the row's contact id among them.
 */
async function heldIn(
  database: LeadkeeperDb,
  listId: string,
  person: ContactRecord,
): Promise<{ indexes: number[]; answered: number }> {
  const found = traces(person)
  const indexes: number[] = []
  let answered = 0
  const [, last] = listBlockRange(listId)
  let next = 0
  for (;;) {
    const blocks: StoredBlock[] = await database.listBlocks
      .where(':id')
      .between([listId, next], last, true, true)
      .limit(10)
      .toArray()
    if (blocks.length === 0) break
    for (const stored of blocks) {
      if (isPacked(stored)) continue
      if ('strings' in stored && !found.some((trace) => stored.strings.includes(trace))) continue
      for (const row of rowBlockOf(stored).rows) {
        if (!linksTo(row, person)) continue
        indexes.push(row!.index)
        if (holdsAnswer(row!, person)) answered++
      }
    }
    next = blocks[blocks.length - 1]!.block + 1
  }
  return { indexes, answered }
}

/** Every list's rows linked to a person. */
async function rowsOfContact(database: LeadkeeperDb, person: ContactRecord): Promise<HeldRows[]> {
  const held: HeldRows[] = []
  for (const list of await database.lists.toArray()) {
    const { indexes, answered } = await heldIn(database, list.id, person)
    if (indexes.length > 0) held.push({ listId: list.id, name: list.name, indexes, answered })
  }
  return held
}

/**
 * Whether a search's payload names this person: one of the keys they are found by (`contactKeys`),
 * unless both have a contact id and the ids differ (two ids are two people).
 */
function namesPerson(payload: Record<string, unknown>, person: ContactRecord): boolean {
  const fields = contactFromPayload(payload)
  if (!fields) return false
  const theirs = contactKeys(fields)
  const own = contactKeys(person)
  const idOf = (keys: string[]) => keys.find((key) => key.startsWith('c:'))
  if (idOf(theirs) && idOf(own) && idOf(theirs) !== idOf(own)) return false
  return theirs.some((key) => own.includes(key))
}

/** The keys of the search rows that name the person. */
async function searchRowsOf(database: LeadkeeperDb, person: ContactRecord): Promise<[string, string][]> {
  const keys: [string, string][] = []
  await database.searchResults.each((record) => {
    if (record.kind === 'lead' && namesPerson(record.data, person)) keys.push([record.runId, record.key])
  })
  return keys
}

/** The person with this id and their slot, or nothing. */
async function personOf(database: LeadkeeperDb, id: string) {
  const index = await contactIndex(database)
  const slot = index.slotOfId(id)
  if (slot === undefined) return null
  const block = (await readContactBlocks(database, [contactBlockOf(slot)])).get(contactBlockOf(slot))
  const person = block?.contacts[slot % contactBlockSize]
  return person?.id === id ? { index, slot, person } : null
}

/** What forgetting a person would change, read before asking the user: nothing is written. */
export async function contactForgetPlan(
  id: string,
  database: LeadkeeperDb = appDb,
): Promise<ContactForgetPlan> {
  const found = await readingPeople(database, () => personOf(database, id))
  if (!found) return { found: false, rows: 0, lists: [], searchResults: 0 }
  const lists = await rowsOfContact(database, found.person)
  const searches = await searchRowsOf(database, found.person)
  return {
    found: true,
    rows: lists.reduce((sum, list) => sum + list.answered, 0),
    lists,
    searchResults: searches.length,
  }
}

/**
 * A row without anything of the person: linked to them, it is as it was imported (its cells, issues,
 * the user's skip and removal; no answer); an earlier answer about them is dropped. Other rows pass
 * as they are.
 */
function withoutPerson<R extends StoredRow>(row: R, person: ContactRecord): R {
  const earlier = row.earlier?.filter(
    (answer) => answer.result === undefined || !namesPerson(answer.result, person),
  )
  const linked =
    row.contactId === person.id ||
    Object.values(row.origins ?? {}).some(
      (origin) => origin?.via === 'library' && origin.contactId === person.id,
    )
  if (!linked && earlier?.length === row.earlier?.length) return row
  const cleared: R = { ...row }
  if (earlier && earlier.length > 0) cleared.earlier = earlier
  else delete cleared.earlier
  if (!linked) return cleared
  for (const field of ['result', 'answers', 'origins', 'note', 'contactId', 'changedAt'] as const)
    delete cleared[field]
  for (const facet of descriptiveFacets) delete cleared[facet]
  cleared.status = 'pending'
  return cleared
}

/** The list's history without the person: an edit keeps the rows before and after it, answers too. */
async function scrubHistory(database: LeadkeeperDb, listId: string, person: ContactRecord): Promise<void> {
  const ops = await database.listOps
    .where('[listId+seq]')
    .between(...listBlockRange(listId), true, true)
    .toArray()
  const changed: ListOp[] = []
  for (const op of ops) {
    if (!op.before && !op.after) continue
    const before = op.before?.map((row) => withoutPerson(row, person))
    const after = op.after?.map((row) => withoutPerson(row, person))
    const same = (a?: StoredRow[], b?: StoredRow[]) => (a ?? []).every((row, at) => row === b?.[at])
    if (same(before, op.before) && same(after, op.after)) continue
    changed.push({ ...op, ...(before ? { before } : {}), ...(after ? { after } : {}) })
  }
  await database.listOps.bulkPut(changed)
}

/**
 * Forgets a person: their record leaves the library (its block and keys written without them, the
 * counts less them, so that no search or index finds them after), every list row holding their
 * answer goes back to unanswered with its imported cells kept (facet counts kept right), the
 * search rows that found them are deleted, and each list touched notes it in its history. One
 * transaction: all of it or nothing.
 */
export async function forgetContact(id: string, database: LeadkeeperDb = appDb): Promise<ForgetOutcome> {
  const tables = [
    ...contactTables(database),
    database.libraryCounts,
    ...blockTables(database),
    ...countTables(database),
    database.lists,
    database.listOps,
    database.searchResults,
  ]
  return database.transaction('rw', tables, async () => {
    const found = await personOf(database, id)
    if (!found) return { forgotten: false, rows: 0, lists: 0, searchResults: 0 }
    const [removed] = await removeContacts(database, found.index, [found.slot])
    const counts = new LibraryTally()
    counts.contact(removed!, -1)
    await addCounts(database.libraryCounts, counts)
    let rows = 0
    const person = removed!
    const held = await rowsOfContact(database, person)
    for (const { listId, indexes, answered } of held) {
      const before = await readRows(database, listId, indexes)
      const after = [...before.values()].map((row) => withoutPerson(row, person))
      const tally = new FacetTally()
      for (const row of before.values()) tally.add(listId, row, -1)
      for (const row of after) tally.add(listId, row, 1)
      await putRows(database, listId, after)
      await applyTally(database, tally)
      // The query worker's stored columns are a cache whose dictionaries may hold the answer's
      // values: made again from the blocks.
      await database.listColumns
        .where('[listId+part]')
        .between(...listBlockRange(listId), true, true)
        .delete()
      await scrubHistory(database, listId, person)
      const rowsText = indexes.length === 1 ? '1 row' : `${indexes.length.toLocaleString('en-US')} rows`
      await noteChange(
        listId,
        'forget',
        `Forgot a person: their answer cleared from ${rowsText}`,
        indexes.length,
        database,
      )
      rows += answered
    }
    const searchRows = await searchRowsOf(database, person)
    await database.searchResults.bulkDelete(searchRows)
    return { forgotten: true, rows, lists: held.length, searchResults: searchRows.length }
  })
}

export interface CompanyForgetPlan {
  found: boolean
  /** Rows of company searches that found the company. */
  searchResults: number
}

/** The keys of the company searches' rows that found the company. */
async function companySearchRowsOf(database: LeadkeeperDb, domain: string): Promise<[string, string][]> {
  const keys: [string, string][] = []
  await database.searchResults.each((record) => {
    if (record.kind === 'company' && companyFromPayload(record.data)?.domain === domain)
      keys.push([record.runId, record.key])
  })
  return keys
}

export async function companyForgetPlan(
  domain: string,
  database: LeadkeeperDb = appDb,
): Promise<CompanyForgetPlan> {
  const company = await database.companies.get(domain)
  if (!company) return { found: false, searchResults: 0 }
  return { found: true, searchResults: (await companySearchRowsOf(database, domain)).length }
}

/**
 * Forgets a company: its record (with the profile every search and lookup merged into it) and the
 * company searches' rows that found it. Its people are people, each forgotten on their own: a
 * company is no person the GDPR protects, and a list row's answer about a person who works there is
 * that person's.
 */
export async function forgetCompany(domain: string, database: LeadkeeperDb = appDb): Promise<ForgetOutcome> {
  return database.transaction(
    'rw',
    [database.companies, database.libraryCounts, database.searchResults],
    async () => {
      const company = await database.companies.get(domain)
      if (!company) return { forgotten: false, rows: 0, lists: 0, searchResults: 0 }
      await database.companies.delete(domain)
      const counts = new LibraryTally()
      counts.company(company, -1)
      await addCounts(database.libraryCounts, counts)
      const searchRows = await companySearchRowsOf(database, domain)
      await database.searchResults.bulkDelete(searchRows)
      return { forgotten: true, rows: 0, lists: 0, searchResults: searchRows.length }
    },
  )
}
