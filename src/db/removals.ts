import { blockOf, blockSize, outOfLine } from './block-shape'
import { FacetTally, removedStatus, tallyFacetRecords } from './facet-tally'
import type { LeadkeeperDb } from './schema'
import type { RemovalBlock, RowBlock, StoredRow } from './records'

/**
 * The rows a user removed, kept beside their blocks (`RemovalBlock`): a removal or a restore writes
 * these records and the counts, never the blocks, so that it costs a kilobyte a block whatever the
 * rows hold (`npm run bench -- --only edits`). Rows are given their `removedAt` as they are read
 * (`withRemovals`), and a write of whole blocks keeps these records in step with the rows it
 * writes (`splitRemovals`), so a change that reads rows and writes them back keeps their removal.
 */

const key = (listId: string, block: number): [string, number] => [listId, block]

/** The removal record of a block's rows, from their `removedAt`; null when none is removed. */
export function removalsOfRows(
  listId: string,
  block: number,
  rows: readonly (StoredRow | undefined)[],
): RemovalBlock | null {
  let record: RemovalBlock | null = null
  for (let at = 0; at < rows.length; at++) {
    const time = rows[at]?.removedAt
    if (time === undefined) continue
    record ??= { listId, block, times: [], codes: new Uint8Array(rows.length) }
    setRemoval(record, at, time)
  }
  return record
}

/** When row `at` of the block was removed; undefined when it is kept. */
export function removalAt(record: RemovalBlock | undefined, at: number): number | undefined {
  const code = record?.codes[at] ?? 0
  return code === 0 ? undefined : record!.times[code - 1]
}

/** Marks row `at` of the block removed at `time`, or kept (`undefined`). */
export function setRemoval(record: RemovalBlock, at: number, time: number | undefined): void {
  if (at >= record.codes.length) {
    const grown = new (record.codes instanceof Uint8Array ? Uint8Array : Uint16Array)(blockSize)
    grown.set(record.codes)
    record.codes = grown
  }
  if (time === undefined) {
    record.codes[at] = 0
    return
  }
  let code = record.times.indexOf(time) + 1
  if (code === 0) {
    record.times.push(time)
    code = record.times.length
    if (code > 0xff && record.codes instanceof Uint8Array) record.codes = Uint16Array.from(record.codes)
  }
  record.codes[at] = code
}

/** The record with only the times still used, or null when no row of it is removed. */
export function compactRemovals(record: RemovalBlock): RemovalBlock | null {
  const used = new Map<number, number>()
  const times: number[] = []
  const codes = new Uint8Array(record.codes.length)
  let wide: Uint16Array | null = null
  for (let at = 0; at < record.codes.length; at++) {
    const code = record.codes[at]!
    if (code === 0) continue
    let next = used.get(code)
    if (next === undefined) {
      times.push(record.times[code - 1]!)
      next = times.length
      used.set(code, next)
      if (next > 0xff && !wide) wide = Uint16Array.from(codes)
    }
    if (wide) wide[at] = next
    else codes[at] = next
  }
  if (times.length === 0) return null
  return { listId: record.listId, block: record.block, times, codes: wide ?? codes }
}

/** Gives each row of a block just read its `removedAt` from the block's removal record. */
export function withRemovals(block: RowBlock, record: RemovalBlock | undefined): RowBlock {
  if (!record) return block
  const rows = block.rows
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at]
    if (!row) continue
    const time = removalAt(record, at)
    if (time !== undefined) row.removedAt = time
    else if (row.removedAt !== undefined) delete row.removedAt
  }
  return block
}

/**
 * A block about to be written, as it is stored (no row holds its `removedAt`: the rows that have
 * one are copied without it), and its removal record (null when none is removed).
 */
export function splitRemovals(block: RowBlock): { block: RowBlock; removals: RemovalBlock | null } {
  const removals = removalsOfRows(block.listId, block.block, block.rows)
  if (!removals) return { block, removals }
  const rows = block.rows.slice()
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at]
    if (row?.removedAt === undefined) continue
    const { removedAt: _removedAt, ...kept } = row
    rows[at] = kept
  }
  return { block: { ...block, rows }, removals }
}

/** The removal records of these blocks, by block number (a block without one is absent). */
export async function readRemovals(
  database: LeadkeeperDb,
  listId: string,
  numbers: readonly number[],
): Promise<Map<number, RemovalBlock>> {
  const out = new Map<number, RemovalBlock>()
  if (numbers.length === 0) return out
  const records = await database.listRemovals.bulkGet(numbers.map((number) => key(listId, number)))
  records.forEach((record, at) => {
    if (record) out.set(numbers[at]!, record)
  })
  return out
}

/** The removal records of blocks `[from, to]`, by block number. */
export async function removalsBetween(
  database: LeadkeeperDb,
  listId: string,
  from: number,
  to: number,
): Promise<Map<number, RemovalBlock>> {
  const records = await database.listRemovals
    .where(':id')
    .between(key(listId, from), key(listId, to), true, true)
    .toArray()
  return new Map(records.map((record) => [record.block, record]))
}

/**
 * Stores blocks' removal records (`null`: the block has none); in the caller's transaction over
 * `listRemovals`.
 */
export async function putRemovals(
  database: LeadkeeperDb,
  listId: string,
  records: ReadonlyMap<number, RemovalBlock | null>,
): Promise<void> {
  const kept: RemovalBlock[] = []
  const gone: [string, number][] = []
  for (const [number, record] of records) {
    if (record) kept.push(record)
    else gone.push(key(listId, number))
  }
  if (kept.length > 0)
    await database.listRemovals.bulkPut(kept, outOfLine(kept.map((record) => key(listId, record.block))))
  if (gone.length > 0) await database.listRemovals.bulkDelete(gone)
}

/** Tells the list's readers that its removals changed; in the caller's transaction over `blockRevs`. */
export async function bumpRemovals(database: LeadkeeperDb, listId: string): Promise<void> {
  const revisions = (await database.blockRevs.get(listId)) ?? { listId, revs: [] }
  revisions.removals = (revisions.removals ?? 0) + 1
  await database.blockRevs.put(revisions)
}

/**
 * Every removed row of a list, a byte a row (1 removed) over its first `size` rows; null when none
 * is removed. What a query's view passes over.
 */
export async function removedMask(
  database: LeadkeeperDb,
  listId: string,
  size: number,
): Promise<Uint8Array | null> {
  const records = await database.listRemovals
    .where(':id')
    .between(key(listId, 0), key(listId, Infinity), true, true)
    .toArray()
  let mask: Uint8Array | null = null
  for (const record of records) {
    const first = record.block * blockSize
    for (let at = 0; at < record.codes.length && first + at < size; at++) {
      if (record.codes[at] === 0) continue
      mask ??= new Uint8Array(size)
      mask[first + at] = 1
    }
  }
  return mask
}

/** Blocks whose removals one pass reads and writes: a few hundred kilobytes of facets. */
const blocksAtOnce = 64

/**
 * Sets or clears the rows' removal, in the caller's transaction over `listRemovals`, `listFacets`,
 * `listCompanies`, `blockRevs` and `countTables`: the indexes it changed (a row already so, or past
 * its block's end, is left). The counts follow from the blocks' facet records, so no row is read.
 */
export async function markRemovals(
  database: LeadkeeperDb,
  listId: string,
  indexes: ArrayLike<number>,
  removedAt: number | undefined,
): Promise<{ changed: Int32Array; tally: FacetTally }> {
  const byBlock = new Map<number, number[]>()
  for (let at = 0; at < indexes.length; at++) {
    const index = indexes[at]!
    const block = blockOf(index)
    let offsets = byBlock.get(block)
    if (!offsets) byBlock.set(block, (offsets = []))
    offsets.push(index - block * blockSize)
  }
  const numbers = [...byBlock.keys()].sort((a, b) => a - b)
  const changed: number[] = []
  const tally = new FacetTally()
  const sign = removedAt === undefined ? 1 : -1
  // The next blocks' records are asked for before this part is worked on, and the puts are not
  // waited for: the database reads and writes while the page tallies.
  const read = (from: number) => {
    const part = numbers.slice(from, from + blocksAtOnce)
    const keys = part.map((number) => key(listId, number))
    return Promise.all([
      part,
      readRemovals(database, listId, part),
      database.listFacets.bulkGet(keys),
      database.listCompanies.bulkGet(keys),
    ] as const)
  }
  const writes: Promise<void>[] = []
  let next = numbers.length > 0 ? read(0) : null
  for (let from = 0; next; from += blocksAtOnce) {
    const [part, records, facets, companies] = await next
    next = from + blocksAtOnce < numbers.length ? read(from + blocksAtOnce) : null
    const written = new Map<number, RemovalBlock | null>()
    part.forEach((number, at) => {
      const facet = facets[at]
      if (!facet) return
      const record = records.get(number) ?? {
        listId,
        block: number,
        times: [],
        codes: new Uint8Array(facet.size),
      }
      const offsets: number[] = []
      for (const offset of byBlock.get(number)!) {
        if (offset >= facet.size || (removalAt(record, offset) !== undefined) === (removedAt !== undefined))
          continue
        setRemoval(record, offset, removedAt)
        offsets.push(offset)
        changed.push(number * blockSize + offset)
      }
      if (offsets.length === 0) return
      // A removed row is counted under its status alone (`countedValues`).
      tallyFacetRecords(tally, listId, facet, companies[at], offsets, sign)
      tally.addValue(listId, 'status', removedStatus, -sign * offsets.length)
      written.set(number, compactRemovals(record))
    })
    writes.push(putRemovals(database, listId, written))
  }
  await Promise.all(writes)
  if (changed.length > 0) await bumpRemovals(database, listId)
  return { changed: Int32Array.from(changed), tally }
}
