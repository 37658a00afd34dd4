import Dexie from 'dexie'
import { contactBlockOf, contactBlockSize, ContactIndex, keyBlockOf } from './contact-index'
import { newEpoch, type LeadkeeperDb } from './schema'
import type {
  ContactBlock,
  ContactKeyBlock,
  ContactRecord,
  ContactRevisions,
  StoredContactBlock,
} from './records'
import { codeValues, decodeValues } from './value-code'

/**
 * The library's people in their blocks: the index that finds them (`contact-index.ts`), kept up to
 * date with what is stored, reading them by slot, and writing changed blocks with their keys. Call
 * these inside a transaction over `contactTables(database)`.
 */

export const contactTables = (database: LeadkeeperDb) => [
  database.peopleBlocks,
  database.peopleKeys,
  database.contactRevs,
]

const indexes = new WeakMap<LeadkeeperDb, ContactIndex>()

/**
 * Whether this runs on a page (in a test or a fallback): the library's work runs in its worker in
 * the app, where nothing waits for a turn inside a write's transaction (the database holds any other
 * call on these tables until it commits).
 */
const onPage = typeof document !== 'undefined'

/**
 * Key blocks read per request when the index catches up: the keys of 3,200 people, about half a
 * megabyte of the bench's, which holds a first page of most searches after a start.
 */
export const keyBlocksPerRead = Math.max(1, Math.round(3_200 / contactBlockSize))

/** Reads of `keyBlocksPerRead` key blocks asked at once when the whole index is read. */
export const keyReadsAtOnce = 32

export async function storedRevisions(database: LeadkeeperDb): Promise<ContactRevisions> {
  return (await database.contactRevs.get('contacts')) ?? { id: 'contacts', epoch: '', size: 0, revs: [] }
}

/**
 * The index of the database's people, with every block whose stored revision differs read again,
 * newest first: none, most times; all of them the first time. A library emptied, begun anew or
 * older than the index starts it anew. `enough`, asked after each read, may stop it early: a first
 * page needs only the newest blocks, and the next call reads on.
 */
export async function contactIndex(
  database: LeadkeeperDb,
  enough?: (index: ContactIndex) => boolean,
): Promise<ContactIndex> {
  const stored = await storedRevisions(database)
  let index = indexes.get(database)
  if (
    !index ||
    index.epoch !== stored.epoch ||
    stored.size < index.size ||
    index.revs.some((rev, block) => (stored.revs[block] ?? 0) < rev)
  ) {
    index = new ContactIndex(stored.epoch)
    indexes.set(database, index)
  }
  // Sized for the whole library only when all of it is read: a first page reads a few blocks.
  if (!enough) index.reserve(stored.size)
  const stale: number[] = []
  stored.revs.forEach((rev, block) => {
    if (index.revs[block] !== rev) stale.push(block)
  })
  stale.reverse()
  // The newest blocks in memory already (read as the worker started) may hold the page: when the
  // library has not grown since and every block to read is older than they are (a scan ends at the
  // first block not read, so it meets no changed block).
  const newestFresh = index.size > 0 && index.size === stored.size && !index.holds(stale[0] ?? -1)
  if (stale.length > 0 && newestFresh && enough?.(index)) return index
  const reads: number[][] = []
  for (let start = 0; start < stale.length; start += keyBlocksPerRead)
    reads.push(stale.slice(start, start + keyBlocksPerRead))
  const take = async (numbers: number[]): Promise<void> => {
    const keys = await database.peopleKeys.bulkGet(numbers)
    keys.forEach((block, at) => {
      if (block) index.put(block, stored.revs[numbers[at]!]!)
    })
  }
  if (enough) {
    // One read at a time, newest first, until the page is held.
    for (const numbers of reads) {
      await take(numbers)
      if (enough(index)) break
    }
    return index
  }
  // The whole index: several reads asked at once, so that the database reads the next while this
  // thread takes in the last (`npm run bench -- --only library`, the first search after a start).
  for (let at = 0; at < reads.length; at += keyReadsAtOnce) {
    await Promise.all(reads.slice(at, at + keyReadsAtOnce).map(take))
  }
  return index
}

/**
 * The newest people's keys read into the index (one read of `keyBlocksPerRead` blocks), as the library
 * worker starts: what a first search after a start reads first, and holds the first page of most.
 */
export function primeContactIndex(database: LeadkeeperDb): Promise<ContactIndex> {
  return database.transaction('r', contactTables(database), async () => contactIndex(database, () => true))
}

/**
 * A read of the people in one read-only transaction. Its scope is an async function whatever
 * `work` is: Dexie keeps the transaction across native awaits only then.
 */
export function readingPeople<R>(database: LeadkeeperDb, work: () => Promise<R>): Promise<R> {
  return database.transaction('r', contactTables(database), async () => work())
}

/** Each database's whole read of the index under way, if one is. */
const wholeReads = new WeakMap<LeadkeeperDb, Promise<ContactIndex>>()

/**
 * The whole index brought up to date in a transaction of its own, for work that holds none. One
 * such read at a time: a second waits for the one under way, then reads what changed since (nothing,
 * most times), instead of every block again beside it (a search's count asked for while the index
 * is read ahead, `readIndexAhead`).
 */
export async function readContactIndex(database: LeadkeeperDb): Promise<ContactIndex> {
  const underWay = wholeReads.get(database)
  if (underWay) await underWay.catch(() => undefined)
  const read = readingPeople(database, () => contactIndex(database))
  wholeReads.set(database, read)
  try {
    return await read
  } finally {
    if (wholeReads.get(database) === read) wholeReads.delete(database)
  }
}

/** A block of people as it is stored: coded, or as it is when a person holds what cannot be coded. */
export function storedContactBlock(block: ContactBlock): StoredContactBlock {
  const coded = codeValues(block.contacts)
  return coded ? { block: block.block, size: block.contacts.length, ...coded } : block
}

/** A block of people as it was stored, made people again. */
export function contactBlockFrom(stored: StoredContactBlock): ContactBlock {
  if (!('shape' in stored)) return stored
  return { block: stored.block, contacts: decodeValues(stored, stored.size) as (ContactRecord | undefined)[] }
}

/** The blocks holding these slots, by block number (a block not written yet is absent). */
export async function readContactBlocks(
  database: LeadkeeperDb,
  numbers: Iterable<number>,
): Promise<Map<number, ContactBlock>> {
  const wanted = [...new Set(numbers)]
  const blocks = await database.peopleBlocks.bulkGet(wanted)
  const out = new Map<number, ContactBlock>()
  blocks.forEach((block, at) => {
    if (block) out.set(wanted[at]!, contactBlockFrom(block))
  })
  return out
}

/** The people at these slots, in that order (a slot holding nobody is skipped). */
export async function contactsAtSlots(
  database: LeadkeeperDb,
  slots: readonly number[],
): Promise<ContactRecord[]> {
  const blocks = await readContactBlocks(database, slots.map(contactBlockOf))
  return slots.flatMap((slot) => blocks.get(contactBlockOf(slot))?.contacts[slot % contactBlockSize] ?? [])
}

/** The people with these ids, in that order (an id nobody has is skipped). */
export async function contactsWithIds(
  database: LeadkeeperDb,
  ids: readonly string[],
): Promise<ContactRecord[]> {
  // No id, nothing to find: not a reason to bring the whole index up to date (a grid's page past
  // a first page still being counted asks for none).
  if (ids.length === 0) return []
  const index = await contactIndex(database)
  const slots = ids.flatMap((id) => index.slotOfId(id) ?? [])
  return contactsAtSlots(database, slots)
}

/**
 * Writes people at their slots (`blocks`: those already read, by number; the others are read), each
 * changed block with its keys and a new revision. The index takes the new keys once the transaction
 * has committed; until then, a read in the same transaction finds them by their revision.
 */
export async function writeContacts(
  database: LeadkeeperDb,
  index: ContactIndex,
  people: ReadonlyMap<number, ContactRecord>,
  blocks: Map<number, ContactBlock>,
): Promise<void> {
  if (people.size === 0) return
  const stored = await storedRevisions(database)
  const numbers = [...new Set([...people.keys()].map(contactBlockOf))]
  const unread = numbers.filter((number) => !blocks.has(number))
  for (const [number, block] of await readContactBlocks(database, unread)) blocks.set(number, block)
  for (const [slot, contact] of people) {
    const number = contactBlockOf(slot)
    let block = blocks.get(number)
    if (!block) {
      block = { block: number, contacts: [] }
      blocks.set(number, block)
    }
    block.contacts[slot % contactBlockSize] = contact
  }
  const changed = numbers.map((number) => blocks.get(number)!)
  const revs = [...stored.revs]
  for (const block of changed) revs[block.block] = (revs[block.block] ?? 0) + 1
  const size = Math.max(stored.size, ...[...people.keys()].map((slot) => slot + 1))
  for (let block = 0; block < revs.length; block++) revs[block] ??= 0
  // A few blocks a request: each is copied for IndexedDB as it is put. On a page, the page gets a
  // turn between requests instead of one long copy of a whole batch; in a worker, every request is
  // made at once, and the database stores the first while the next are copied.
  const keys: ContactKeyBlock[] = []
  const writes: Promise<unknown>[] = []
  for (let start = 0; start < changed.length; start += blocksPerWrite) {
    const some = changed.slice(start, start + blocksPerWrite)
    const someKeys = some.map((block) => keyBlockOf(block.block, block.contacts))
    keys.push(...someKeys)
    const someNumbers = some.map((block) => block.block)
    const written = Promise.all([
      database.peopleBlocks.bulkPut(some.map(storedContactBlock), someNumbers),
      database.peopleKeys.bulkPut(someKeys, someNumbers),
    ])
    if (onPage) await written
    else writes.push(written)
  }
  await Promise.all(writes)
  await database.contactRevs.put({ ...stored, epoch: stored.epoch || newEpoch(), size, revs })
  Dexie.currentTransaction?.idbtrans.addEventListener('complete', () => {
    for (const block of keys) index.put(block, revs[block.block]!)
  })
}

/**
 * Takes people out of their slots (a forget): each slot holds nobody from now on and keeps its
 * place, so the people after it keep theirs and the newest-first order of everyone else stands. The
 * blocks and their keys are written anew, their revisions bumped, so every index (the library
 * worker's too) reads them again and finds nobody there; the slots are kept in `forgotten`. Returns
 * the people taken out. In the caller's transaction over `contactTables`.
 */
export async function removeContacts(
  database: LeadkeeperDb,
  index: ContactIndex,
  slots: readonly number[],
): Promise<ContactRecord[]> {
  if (slots.length === 0) return []
  const stored = await storedRevisions(database)
  const blocks = await readContactBlocks(database, slots.map(contactBlockOf))
  const removed: ContactRecord[] = []
  for (const slot of slots) {
    const block = blocks.get(contactBlockOf(slot))
    const person = block?.contacts[slot % contactBlockSize]
    if (!block || !person) continue
    block.contacts[slot % contactBlockSize] = undefined
    removed.push(person)
  }
  const changed = [...blocks.values()]
  const keys = changed.map((block) => keyBlockOf(block.block, block.contacts))
  const numbers = changed.map((block) => block.block)
  await database.peopleBlocks.bulkPut(changed.map(storedContactBlock), numbers)
  await database.peopleKeys.bulkPut(keys, numbers)
  const revs = [...stored.revs]
  for (const number of numbers) revs[number] = (revs[number] ?? 0) + 1
  const forgotten = [...new Set([...(stored.forgotten ?? []), ...slots])].sort((a, b) => a - b)
  await database.contactRevs.put({ ...stored, revs, forgotten })
  Dexie.currentTransaction?.idbtrans.addEventListener('complete', () => {
    for (const block of keys) index.put(block, revs[block.block]!)
  })
  return removed
}

/**
 * A turn for the page inside a transaction: one small read, whose answer comes back as a task of its
 * own, so input and frames run between slices of work. A timer would end the transaction instead
 * (one with no request pending commits). None in a worker: each was a wait for the database's answer,
 * fifteen of them in a batch of 10,000 people.
 */
export async function pageTurn(database: LeadkeeperDb): Promise<void> {
  if (onPage) await database.contactRevs.get('contacts')
}

/** Blocks written per request: about a thousand people. */
const blocksPerWrite = Math.max(1, Math.round(1_000 / contactBlockSize))

/** How many people the library holds: one small record (slots taken, less those forgotten). */
export async function countContacts(database: LeadkeeperDb): Promise<number> {
  const stored = await storedRevisions(database)
  return stored.size - (stored.forgotten?.length ?? 0)
}

/**
 * The slots of people `start` to `start + count` newest first: slots are the order people were
 * first stored, so this needs the count and the forgotten slots alone, not the index.
 */
export function slotsFromNewest(
  stored: Pick<ContactRevisions, 'size' | 'forgotten'>,
  start: number,
  count: number,
): number[] {
  const holes = [...(stored.forgotten ?? [])].reverse()
  // The slot of position `start`: one lower for each forgotten slot at or above it.
  let slot = stored.size - 1 - start
  let hole = 0
  while (hole < holes.length && holes[hole]! >= slot) {
    hole++
    slot--
  }
  const slots: number[] = []
  for (; slot >= 0 && slots.length < count; slot--) {
    if (hole < holes.length && holes[hole] === slot) {
      hole++
      continue
    }
    slots.push(slot)
  }
  return slots
}

/** People `start` to `start + count` newest first, by position (`slotsFromNewest`). */
export async function contactsFromNewest(
  database: LeadkeeperDb,
  start: number,
  count: number,
): Promise<ContactRecord[]> {
  const stored = await storedRevisions(database)
  return contactsAtSlots(database, slotsFromNewest(stored, start, count))
}
