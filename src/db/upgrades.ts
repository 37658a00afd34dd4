import type { IndexableType, Transaction } from 'dexie'
import { blockSize, legacyFacetBlockOf, outOfLine, splitFacets } from './block-shape'
import { contactBlockSize, keyBlockOf, legacyContactBlockSize } from './contact-index'
import { descriptiveFacets, FacetTally, unknownValue } from './facet-tally'
import { companyWords, contactWords, LibraryTally } from './library-shape'
import { foldsAnew } from './words'
import type {
  BlockRevisions,
  CompanyBlock,
  CompanyRecord,
  ContactBlock,
  ContactKeyBlock,
  ContactRecord,
  ContactRevisions,
  FacetBlock,
  FacetCountRecord,
  LegacyFacetBlock,
  LibraryCountRecord,
  RowBlock,
  RowRecord,
} from './schema'

/**
 * The upgrades of the database's versions (`schema.ts` declares them): each moves what the version
 * before stored into the new shape, inside the upgrade's transaction, reporting progress when long.
 */

/** Version 2: the facet counts of every list, kept from now on. */
export async function facetCountsOfRows(tx: Transaction): Promise<void> {
  const tally = new FacetTally()
  await tx.table<RowRecord, [string, number]>('rows').each((row) => tally.add(row.listId, row, 1))
  await tx.table<FacetCountRecord>('facetCounts').bulkPut(tally.records())
}

/** Version 5: the library's search words, and its facet counts, kept from now on. */
export async function libraryWordsAndCounts(tx: Transaction): Promise<void> {
  const counts = new LibraryTally()
  await tx
    .table<ContactRecord>('contacts')
    .toCollection()
    .modify((contact) => {
      contact.words = contactWords(contact)
      counts.contact(contact, 1)
    })
  await tx
    .table<CompanyRecord>('companies')
    .toCollection()
    .modify((company) => {
      company.words = companyWords(company)
      counts.company(company, 1)
    })
  await tx.table<LibraryCountRecord>('libraryCounts').bulkPut(counts.records())
}

export interface UpgradeProgress {
  /** What is moved: a list's rows, their filter columns (counted in rows), or the library's people. */
  what: 'rows' | 'filters' | 'contacts'
  /** Moved so far, of `total`. */
  done: number
  total: number
}

const upgradeListeners = new Set<(progress: UpgradeProgress) => void>()

/** Hears how far a long upgrade of the database has come (the app shows it while it opens). */
export function onUpgradeProgress(listener: (progress: UpgradeProgress) => void): () => void {
  upgradeListeners.add(listener)
  return () => upgradeListeners.delete(listener)
}

/** Version 3: every row of the one-record-per-row table, in key order, into its list's blocks. */
export async function rowsIntoBlocks(tx: Transaction): Promise<void> {
  const rows = tx.table<RowRecord, [string, number]>('rows')
  const total = await rows.count()
  const report = reporter('rows', total)
  report(0)
  let done = 0
  let after: [string, number] | null = null
  const open = new Map<string, RowBlock>()
  const revs = new Map<string, number[]>()
  for (;;) {
    const page: RowRecord[] = await (after ? rows.where(':id').above(after) : rows.toCollection())
      .limit(upgradePage)
      .toArray()
    if (page.length === 0) break
    const full: RowBlock[] = []
    for (const record of page) {
      const { listId, ...row } = record
      for (const facet of descriptiveFacets) if (row[facet] === unknownValue[facet]) delete row[facet]
      const number = Math.floor(row.index / blockSize)
      let block = open.get(listId)
      if (block && block.block !== number) {
        full.push(block)
        block = undefined
      }
      if (!block) {
        block = { listId, block: number, rows: [] }
        open.set(listId, block)
        const listRevs = revs.get(listId) ?? []
        listRevs[number] = 1
        revs.set(listId, listRevs)
      }
      block.rows[row.index - number * blockSize] = row
    }
    await putBlocks(tx, full)
    done += page.length
    const last = page[page.length - 1]!
    after = [last.listId, last.index]
    report(done)
  }
  await putBlocks(tx, [...open.values()])
  await tx
    .table<BlockRevisions>('blockRevs')
    .bulkPut(
      [...revs].map(([listId, listRevs]) => ({ listId, revs: Array.from(listRevs, (rev) => rev ?? 0) })),
    )
  report(total)
}

const upgradePage = 10_000

function reporter(what: UpgradeProgress['what'], total: number): (done: number) => void {
  return (done) => {
    for (const listener of upgradeListeners) listener({ what, done, total })
  }
}

/**
 * Version 6: every person of the one-record-each table into blocks, in the order they were first
 * stored (a first pass reads when, a second moves them), each block with its keys.
 */
export async function contactsIntoBlocks(tx: Transaction): Promise<void> {
  const contacts = tx.table<ContactRecord, string>('contacts')
  const total = await contacts.count()
  // Each pass is half the work: the dialog counts a person moved once both are done.
  const report = reporter('contacts', total)
  const half = (steps: number) => report(Math.floor(steps / 2))
  report(0)
  const order: { at: number; id: string }[] = []
  let after: string | null = null
  for (;;) {
    const page: ContactRecord[] = await (
      after === null ? contacts.toCollection() : contacts.where(':id').above(after)
    )
      .limit(upgradePage)
      .toArray()
    if (page.length === 0) break
    for (const contact of page) order.push({ at: contact.firstSeenAt ?? 0, id: contact.id })
    after = page[page.length - 1]!.id
    half(order.length)
  }
  order.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const revs: number[] = []
  for (let start = 0; start < order.length; start += upgradePage) {
    const ids = order.slice(start, start + upgradePage).map(({ id }) => id)
    const records = (await contacts.bulkGet(ids)).map((contact) => ({
      ...contact!,
      words: contact!.words ?? contactWords(contact!),
    }))
    const blocks: ContactBlock[] = []
    // Version 6's blocks, of 50: version 10's upgrade, run after it, regroups them.
    for (let at = 0; at < records.length; at += legacyContactBlockSize) {
      const block = (start + at) / legacyContactBlockSize
      blocks.push({ block, contacts: records.slice(at, at + legacyContactBlockSize) })
      revs[block] = 1
    }
    await putContactBlocks(tx, blocks)
    half(total + start + ids.length)
  }
  await tx
    .table<ContactRevisions>('contactRevs')
    .put({ id: 'contacts', epoch: newEpoch(), size: order.length, revs })
  report(total)
}

/** Blocks of people with their key blocks, as the library writes them, in an upgrade's transaction. */
async function putContactBlocks(tx: Transaction, blocks: ContactBlock[]): Promise<void> {
  await tx.table<ContactBlock>('contactBlocks').bulkPut(blocks)
  await tx
    .table<ContactKeyBlock>('contactKeys')
    .bulkPut(blocks.map(({ block, contacts }) => keyBlockOf(block, contacts)))
}

/**
 * Version 10: the library's people regrouped from blocks of `legacyContactBlockSize` into blocks of
 * `contactBlockSize`, each person at the same slot, with their key blocks, under a new epoch (an
 * index built before is read anew). The old blocks are read in order, a page at a time; a new block
 * is written once every slot it holds has been read, over an old block already read (new block n
 * starts at slot n·100, past old block n's slots).
 */
export async function contactsInLargerBlocks(tx: Transaction): Promise<void> {
  const blocks = tx.table<ContactBlock, number>('contactBlocks')
  const keys = tx.table<ContactKeyBlock, number>('contactKeys')
  const last = await blocks.toCollection().last()
  if (!last) return
  const stored = await tx.table<ContactRevisions>('contactRevs').get('contacts')
  // The people the blocks hold, should the revisions say fewer (or be missing: none the app wrote).
  const size = Math.max(stored?.size ?? 0, last.block * legacyContactBlockSize + last.contacts.length)
  const report = reporter('contacts', size)
  report(0)
  // The slots read and not yet written, from the first slot of block `next` on.
  let held: ContactRecord[] = []
  let next = 0
  let read = 0
  const write = async (whole: boolean) => {
    const count = whole
      ? Math.ceil(held.length / contactBlockSize)
      : Math.floor(held.length / contactBlockSize)
    if (count === 0) return
    const ready: ContactBlock[] = []
    for (let at = 0; at < count; at++) {
      const from = at * contactBlockSize
      // Dense: a slot no block held (none the app wrote) is undefined, read as nobody, not a hole.
      const length = Math.min(contactBlockSize, held.length - from)
      ready.push({ block: next + at, contacts: Array.from({ length }, (_, i) => held[from + i]!) })
    }
    held = held.slice(count * contactBlockSize)
    next += count
    await putContactBlocks(tx, ready)
  }
  let after = -1
  for (;;) {
    const page = await blocks.where(':id').above(after).limit(legacyPage).toArray()
    if (page.length === 0) break
    for (const old of page) {
      const first = old.block * legacyContactBlockSize
      const base = next * contactBlockSize
      for (let at = 0; at < old.contacts.length; at++) held[first - base + at] = old.contacts[at]!
      read = Math.max(read, first + old.contacts.length)
    }
    after = page[page.length - 1]!.block
    await write(false)
    report(read)
  }
  await write(true)
  // The old blocks past the new ones, all read by now.
  await blocks.where(':id').aboveOrEqual(next).delete()
  await keys.where(':id').aboveOrEqual(next).delete()
  await tx.table<ContactRevisions>('contactRevs').put({
    id: 'contacts',
    epoch: newEpoch(),
    size,
    revs: Array.from({ length: next }, () => 1),
  })
  report(size)
}

/** Old blocks of people read at a time in version 10's upgrade: 10,000 people, some 10 MB. */
const legacyPage = 200

async function putBlocks(tx: Transaction, blocks: RowBlock[]): Promise<void> {
  if (blocks.length === 0) return
  // A row missing from a block (never the case for a list the app wrote) is left a hole, read as absent.
  await tx.table<RowBlock>('blocks').bulkPut(blocks)
  // The shape of version 3: version 8's upgrade, run after it, moves the company column out.
  await tx.table<LegacyFacetBlock>('blockFacets').bulkPut(blocks.map(legacyFacetBlockOf))
}

/**
 * Version 8: each block's company column out of its facets into a record of its own, a page of
 * blocks at a time. A record already without one (none the app wrote) is left as it is.
 */
export async function companiesOutOfFacets(tx: Transaction): Promise<void> {
  const facets = tx.table<LegacyFacetBlock | FacetBlock, [string, number]>('blockFacets')
  const total = await facets.count()
  // Counted in rows (a block's worth each), what a user knows their lists by.
  const report = reporter('filters', total * blockSize)
  report(0)
  let done = 0
  let after: [string, number] | null = null
  for (;;) {
    const page: (LegacyFacetBlock | FacetBlock)[] = await (
      after ? facets.where(':id').above(after) : facets.toCollection()
    )
      .limit(facetPage)
      .toArray()
    if (page.length === 0) break
    const legacy = page.filter((record): record is LegacyFacetBlock => 'company' in record.columns)
    const split = legacy.map(splitFacets)
    await tx.table<CompanyBlock>('blockCompanies').bulkPut(split.map((record) => record.company))
    await facets.bulkPut(split.map((record) => record.facets))
    done += page.length
    const last = page[page.length - 1]!
    after = [last.listId, last.block]
    report(done * blockSize)
  }
  report(total * blockSize)
}

/**
 * Facet records moved at a time: 100,000 rows' worth, under a megabyte, so that the dialog's bar
 * moves in steps a user sees on a list of a few hundred thousand rows.
 */
const facetPage = 100

/**
 * Version 11: every block into a table that keeps its key beside it (out of line), a page at a time
 * in key order: a list's facet and company columns, its rows, then the library's people and their
 * keys. The records are the same; version 12 deletes the old tables. Progress is counted as the
 * earlier moves count it: in rows (the facet records say how many each block holds), then people.
 */
export async function blocksKeyedApart(tx: Transaction): Promise<void> {
  const listKey = (record: { listId: string; block: number }): [string, number] => [
    record.listId,
    record.block,
  ]
  const peopleKey = (record: { block: number }): number => record.block
  let rows = 0
  await moveApart(tx, { from: 'blockFacets', to: 'listFacets', keyOf: listKey, page: facetPage }, (page) => {
    for (const record of page as FacetBlock[]) rows += record.size
  })
  await moveApart(tx, { from: 'blockCompanies', to: 'listCompanies', keyOf: listKey, page: facetPage })
  await moveReported(
    tx,
    { from: 'blocks', to: 'listBlocks', keyOf: listKey, page: rowPage },
    { what: 'rows', total: rows, count: (block: RowBlock) => block.rows.length },
  )
  const revisions = await tx.table<ContactRevisions>('contactRevs').get('contacts')
  await moveReported(
    tx,
    { from: 'contactBlocks', to: 'peopleBlocks', keyOf: peopleKey, page: legacyPage },
    { what: 'contacts', total: revisions?.size ?? 0, count: (block: ContactBlock) => block.contacts.length },
  )
  await moveApart(tx, { from: 'contactKeys', to: 'peopleKeys', keyOf: peopleKey, page: legacyPage })
}

/** Blocks of a list's rows moved at a time in version 11's upgrade: 20,000 rows, a few megabytes. */
const rowPage = 20

/** The records of table `from` into table `to`, each under `keyOf(record)` (its key in `from`), `page` at a time. */
interface Move<T, K extends IndexableType> {
  from: string
  to: string
  keyOf: (record: T) => K
  page: number
}

/** A move in key order; `onPage` hears each page once it is put. */
async function moveApart<T, K extends IndexableType>(
  tx: Transaction,
  move: Move<T, K>,
  onPage?: (records: T[]) => void,
): Promise<void> {
  const source = tx.table<T, K>(move.from)
  const target = tx.table<T, K>(move.to)
  let after: K | null = null
  for (;;) {
    const records: T[] = await (after === null ? source.toCollection() : source.where(':id').above(after))
      .limit(move.page)
      .toArray()
    if (records.length === 0) return
    const keys = records.map(move.keyOf)
    await target.bulkPut(records, outOfLine(keys))
    after = keys[keys.length - 1]!
    onPage?.(records)
  }
}

/**
 * A move with the upgrade dialog's progress: `total` of `what`, each record moved counting
 * `count(record)` (a total of none reports nothing).
 */
async function moveReported<T, K extends IndexableType>(
  tx: Transaction,
  move: Move<T, K>,
  progress: { what: UpgradeProgress['what']; total: number; count: (record: T) => number },
): Promise<void> {
  const { what, total, count } = progress
  if (total === 0) return moveApart(tx, move)
  const report = reporter(what, total)
  report(0)
  let moved = 0
  await moveApart(tx, move, (records) => {
    for (const record of records) moved += count(record)
    report(Math.min(moved, total))
  })
  report(total)
}

/**
 * Version 13: the library's words folded anew, now that letters which are not a letter and an accent
 * fold too ("Østergaard" is found as "ostergaard"; see `fold`): the people whose words change, with
 * their blocks' keys and revisions (an index built before reads those blocks again), and the companies.
 * The people are read a page of blocks at a time, with the upgrade dialog's progress.
 */
export async function libraryWordsRefolded(tx: Transaction): Promise<void> {
  const blocks = tx.table<ContactBlock, number>('peopleBlocks')
  const keys = tx.table<ContactKeyBlock, number>('peopleKeys')
  const revisions = tx.table<ContactRevisions>('contactRevs')
  const stored = await revisions.get('contacts')
  const report = stored && stored.size > 0 ? reporter('contacts', stored.size) : () => undefined
  report(0)
  const revs = [...(stored?.revs ?? [])]
  let read = 0
  let after = -1
  for (;;) {
    const page = await blocks.where(':id').above(after).limit(legacyPage).toArray()
    if (page.length === 0) break
    const changed = page.filter((block) => refold(block.contacts))
    if (changed.length > 0) {
      const numbers = changed.map((block) => block.block)
      await blocks.bulkPut(changed, outOfLine(numbers))
      await keys.bulkPut(
        changed.map((block) => keyBlockOf(block.block, block.contacts)),
        outOfLine(numbers),
      )
      for (const block of numbers) revs[block] = (revs[block] ?? 0) + 1
    }
    for (const block of page) read += block.contacts.length
    after = page[page.length - 1]!.block
    report(Math.min(read, stored?.size ?? read))
  }
  if (stored) await revisions.put({ ...stored, revs })
  await tx
    .table<CompanyRecord, string>('companies')
    .filter((company) => foldsAnew(`${company.name} ${company.domain}`))
    .modify((company) => {
      company.words = companyWords(company)
    })
  report(stored?.size ?? 0)
}

/** Gives the people of a block whose words fold anew their new words; whether any changed. */
function refold(contacts: (ContactRecord | undefined)[]): boolean {
  let changed = false
  contacts.forEach((contact, at) => {
    if (!contact || !foldsAnew(`${contact.fullName} ${contact.email} ${contact.companyDomain}`)) return
    contacts[at] = { ...contact, words: contactWords(contact) }
    changed = true
  })
  return changed
}

/** A name for a library's contents, new each time a library starts from nothing. */
export function newEpoch(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
}
