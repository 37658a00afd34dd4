import Dexie from 'dexie'
import {
  blockLength,
  blockOf,
  blockSize,
  cellsRow,
  codeBlock,
  facetRecordsOf,
  facetRecordsWith,
  isCoded,
  isPacked,
  outOfLine,
  packBlock,
  packCells,
  rowBlockOf,
  unpackBlock,
} from './block-shape'
import type { LeadkeeperDb } from './schema'
import type {
  CodedBlock,
  CompanyBlock,
  FacetBlock,
  PackedBlock,
  RowBlock,
  RowIssue,
  RowRecord,
  StoredBlock,
  StoredRow,
} from './records'
import type { CellsAt } from './block-shape'
import type { BatchCells } from '@domain/read/parse'
import { packIssues } from '@domain/validation'
import { applyTally, FacetTally } from './facet-tally'
import {
  putRemovals,
  readRemovals,
  removalAt,
  removalsBetween,
  splitRemovals,
  withRemovals,
} from './removals'
import { isObjectValue, spliceValues, valueAt, valueBounds } from './value-code'
import type { RemovalBlock } from './records'

export { blockOf, blockSize } from './block-shape'

/**
 * Reading and writing a list's rows in their blocks. Every write goes through `writeBlocks`, which
 * keeps each block's facet columns (its company column apart) and revision with it: call it inside a
 * transaction over `blockTables(database)` (and whatever else the change touches).
 */

export const blockTables = (database: LeadkeeperDb) => [
  database.listBlocks,
  database.listFacets,
  database.listCompanies,
  database.listRemovals,
  database.blockRevs,
  database.listColumns,
]

/** The tables keyed by `[listId, block]`: a list's blocks and the records kept beside each. */
export const blockKeyedTables = (database: LeadkeeperDb) =>
  [database.listBlocks, database.listFacets, database.listCompanies, database.listRemovals] as const

/** What a read of rows reads: the blocks and their removals, in one transaction so they agree. */
export const rowTables = (database: LeadkeeperDb) => [database.listBlocks, database.listRemovals]

const key = (listId: string, block: number): [string, number] => [listId, block]

/** Every block key of a list. */
export function listBlockRange(listId: string): [[string, unknown], [string, unknown]] {
  return [
    [listId, Dexie.minKey],
    [listId, Dexie.maxKey],
  ]
}

export function withList(listId: string, row: StoredRow): RowRecord {
  return { ...row, listId }
}

function stored(row: RowRecord): StoredRow {
  const { listId: _listId, ...rest } = row
  return rest
}

/** These blocks as stored (undefined where not written yet) and their removal records, read together. */
function readStored(
  database: LeadkeeperDb,
  listId: string,
  numbers: readonly number[],
): Promise<[(StoredBlock | undefined)[], Map<number, RemovalBlock>]> {
  return database.transaction('r', rowTables(database), async () =>
    Promise.all([
      database.listBlocks.bulkGet(numbers.map((number) => key(listId, number))),
      readRemovals(database, listId, numbers),
    ]),
  )
}

/** The blocks holding these rows, by block number (a block not written yet is absent). */
export async function readBlocks(
  database: LeadkeeperDb,
  listId: string,
  numbers: Iterable<number>,
): Promise<Map<number, RowBlock>> {
  const wanted = [...new Set(numbers)]
  const [blocks, removals] = await readStored(database, listId, wanted)
  const out = new Map<number, RowBlock>()
  blocks.forEach((block, at) => {
    const number = wanted[at]!
    if (block) out.set(number, withRemovals(rowBlockOf(block), removals.get(number)))
  })
  return out
}

/** The rows at these indexes, by index; an index with no row is absent. */
export async function readRows(
  database: LeadkeeperDb,
  listId: string,
  indexes: readonly number[],
): Promise<Map<number, RowRecord>> {
  const byBlock = new Map<number, number[]>()
  for (const index of indexes) {
    const number = blockOf(index)
    const offsets = byBlock.get(number)
    if (offsets) offsets.push(index - number * blockSize)
    else byBlock.set(number, [index - number * blockSize])
  }
  const numbers = [...byBlock.keys()]
  const [blocks, removals] = await readStored(database, listId, numbers)
  const out = new Map<number, RowRecord>()
  blocks.forEach((block, at) => {
    if (!block) return
    const number = numbers[at]!
    const first = number * blockSize
    const removal = removals.get(number)
    for (const [offset, row] of rowsOf(block, byBlock.get(number)!)) {
      const removedAt = removalAt(removal, offset)
      if (removedAt !== undefined) row.removedAt = removedAt
      out.set(first + offset, withList(listId, row))
    }
  })
  return out
}

/**
 * The rows at these places of a stored block, by place: a coded block asked for a few makes only
 * those, any other is made rows whole.
 */
function rowsOf(block: StoredBlock, offsets: readonly number[]): Map<number, StoredRow> {
  const out = new Map<number, StoredRow>()
  if (isCoded(block) && offsets.length * 8 < block.size) {
    const bounds = valueBounds(block, block.size)
    for (const offset of offsets) {
      if (offset < block.size && isObjectValue(block, bounds, offset))
        out.set(offset, valueAt(block, bounds, offset) as StoredRow)
    }
    return out
  }
  const rows = rowBlockOf(block).rows
  for (const offset of offsets) {
    const row = rows[offset]
    if (row) out.set(offset, row)
  }
  return out
}

export async function rowAt(
  database: LeadkeeperDb,
  listId: string,
  index: number,
): Promise<RowRecord | undefined> {
  return (await readRows(database, listId, [index])).get(index)
}

/** The rows of `[start, end)` in import order, read a few blocks at a time. */
export async function readRange(
  database: LeadkeeperDb,
  listId: string,
  start: number,
  end: number,
): Promise<RowRecord[]> {
  if (end <= start) return []
  const [blocks, removals] = await database.transaction('r', rowTables(database), async () =>
    Promise.all([
      database.listBlocks
        .where(':id')
        .between(key(listId, blockOf(start)), key(listId, blockOf(end - 1)), true, true)
        .toArray(),
      removalsBetween(database, listId, blockOf(start), blockOf(end - 1)),
    ]),
  )
  const out: RowRecord[] = []
  for (const stored of blocks) {
    const block = withRemovals(rowBlockOf(stored), removals.get(stored.block))
    const first = block.block * blockSize
    const from = Math.max(start, first) - first
    const to = Math.min(end, first + block.rows.length) - first
    for (let at = from; at < to; at++) {
      const row = block.rows[at]
      if (row) out.push(withList(listId, row))
    }
  }
  return out
}

/**
 * Blocks made ready to store (`prepareBlocks`): as stored (coded, or packed), their facet and
 * company records, and their removals apart.
 */
export interface PreparedBlocks {
  listId: string
  blocks: StoredBlock[]
  facets: FacetBlock[]
  companies: CompanyBlock[]
  removals: Map<number, RemovalBlock | null>
}

/**
 * Whole blocks made ready to store, before any transaction: each block of rows coded, its removals
 * kept apart (a packed block is new, none of it removed), the facet and company records made.
 */
export function prepareBlocks(listId: string, blocks: readonly (RowBlock | PackedBlock)[]): PreparedBlocks {
  const removals = new Map<number, RemovalBlock | null>()
  const kept = blocks.map((block) => {
    if (isPacked(block)) return block
    const split = splitRemovals(block)
    removals.set(block.block, split.removals)
    return split.block
  })
  const records = kept.map(facetRecordsOf)
  return {
    listId,
    blocks: kept.map((block) => (isPacked(block) ? block : codeBlock(block))),
    facets: records.map((record) => record.facets),
    companies: records.map((record) => record.company),
    removals,
  }
}

/** Stores prepared blocks with a new revision each; in the caller's transaction over `blockTables`. */
export async function putBlocks(database: LeadkeeperDb, prepared: PreparedBlocks): Promise<void> {
  const { listId, blocks } = prepared
  if (blocks.length === 0) return
  const revisions = (await database.blockRevs.get(listId)) ?? { listId, revs: [] }
  const revs = revisions.revs
  for (const block of blocks) {
    for (let at = revs.length; at < block.block; at++) revs[at] = 0
    revs[block.block] = (revs[block.block] ?? 0) + 1
  }
  const keys = outOfLine(blocks.map((block) => key(listId, block.block)))
  await database.listBlocks.bulkPut(blocks, keys)
  await putRemovals(database, listId, prepared.removals)
  await database.listFacets.bulkPut(prepared.facets, keys)
  await database.listCompanies.bulkPut(prepared.companies, keys)
  await database.blockRevs.put(revisions)
}

/**
 * Writes whole blocks with their facet columns and a new revision each; in the caller's
 * transaction over `blockTables`. A block of rows is stored coded (`CodedBlock`), a packed one as
 * it is.
 */
export async function writeBlocks(
  database: LeadkeeperDb,
  listId: string,
  blocks: (RowBlock | PackedBlock)[],
): Promise<void> {
  if (blocks.length === 0) return
  await putBlocks(database, prepareBlocks(listId, blocks))
}

/**
 * Puts rows at their indexes, in their blocks (a block not written yet is started); in the
 * caller's transaction over `blockTables`.
 */
export function putRows(database: LeadkeeperDb, listId: string, rows: readonly RowRecord[]): Promise<void> {
  return putStoredRows(database, listId, rows.map(stored))
}

/**
 * `putRows` of rows already in their stored shape (without their list's id). In a coded block the
 * rows are coded alone and put among the other rows' codes, and its facet records changed at their
 * places (`patchBlock`); any other block is made rows, the rows placed in it, and written whole.
 */
export async function putStoredRows(
  database: LeadkeeperDb,
  listId: string,
  rows: readonly StoredRow[],
): Promise<void> {
  if (rows.length === 0) return
  const byBlock = new Map<number, Map<number, StoredRow>>()
  for (const row of rows) {
    const number = blockOf(row.index)
    let placed = byBlock.get(number)
    if (!placed) byBlock.set(number, (placed = new Map()))
    placed.set(row.index - number * blockSize, row)
  }
  const numbers = [...byBlock.keys()]
  const keys = numbers.map((number) => key(listId, number))
  const [stored, facets, companies, removals] = await Promise.all([
    database.listBlocks.bulkGet(keys),
    database.listFacets.bulkGet(keys),
    database.listCompanies.bulkGet(keys),
    readRemovals(database, listId, numbers),
  ])
  const patched: NonNullable<ReturnType<typeof patchBlock>>[] = []
  const whole: RowBlock[] = []
  numbers.forEach((number, at) => {
    const placed = byBlock.get(number)!
    const block = stored[at]
    const removal = removals.get(number)
    const patch =
      block && isCoded(block) ? patchBlock(block, facets[at], companies[at], removal, placed) : null
    if (patch) {
      patched.push(patch)
      return
    }
    const made: RowBlock = block
      ? withRemovals(rowBlockOf(block), removal)
      : { listId, block: number, rows: [] }
    for (const [offset, row] of placed) made.rows[offset] = row
    whole.push(made)
  })
  const prepared = prepareBlocks(listId, whole)
  for (const patch of patched) {
    prepared.blocks.push(patch.block)
    prepared.facets.push(patch.facets)
    prepared.companies.push(patch.company)
  }
  await putBlocks(database, prepared)
}

/**
 * A coded block with rows put at some of its places (`placed`, by place), as stored: the rows coded
 * alone among the others' codes (`spliceValues`), the facet records changed at their places. Null
 * where the block must be written whole: a place past its rows, a row removed or to be, a record
 * missing, a value that cannot be coded.
 */
function patchBlock(
  block: CodedBlock,
  facets: FacetBlock | undefined,
  company: CompanyBlock | undefined,
  removal: RemovalBlock | undefined,
  placed: ReadonlyMap<number, StoredRow>,
): { block: CodedBlock; facets: FacetBlock; company: CompanyBlock } | null {
  if (!facets || !company) return null
  for (const [offset, row] of placed) {
    if (offset >= block.size || row.removedAt !== undefined || removalAt(removal, offset) !== undefined)
      return null
  }
  const values = spliceValues(block, block.size, placed)
  const records = values && facetRecordsWith(facets, company, placed)
  if (!values || !records) return null
  return { block: { listId: block.listId, block: block.block, size: block.size, ...values }, ...records }
}

/**
 * Puts rows at their indexes in `blocks` (by number; a block not there is started): the blocks they
 * went into.
 */
function placeRows(listId: string, blocks: Map<number, RowBlock>, rows: readonly StoredRow[]): RowBlock[] {
  const touched = new Map<number, RowBlock>()
  for (const row of rows) {
    const number = blockOf(row.index)
    let block = blocks.get(number)
    if (!block) {
      block = { listId, block: number, rows: [] }
      blocks.set(number, block)
    }
    block.rows[row.index - number * blockSize] = row
    touched.set(number, block)
  }
  return [...touched.values()]
}

/**
 * Rows new to a list made ready to store (`prepareBlockRows`): each block they fill from its first
 * row packed, the others' rows in their stored shape.
 */
export interface PreparedRows {
  listId: string
  packed: PackedBlock[]
  loose: StoredRow[]
}

/**
 * Readies an import's rows to store, before its transaction: once packed, the batch's cells and
 * their arrays are no longer held while the transaction starts, reads and commits, as the next batch
 * is read. Held, each would survive the young generation's collections and be copied to the old
 * one (`--trace-gc-nvp` over `npm run bench -- --only browser`, the import).
 */
export function prepareBlockRows(
  listId: string,
  startIndex: number,
  rows: readonly string[][],
  issues?: readonly RowIssue[][],
  cells?: BatchCells,
): PreparedRows {
  const packed: PackedBlock[] = []
  const loose: StoredRow[] = []
  const end = startIndex + rows.length
  // With the batch's cells, its rows are packed from them (the file's text as it was read), and a
  // row's cells are read from them where a block cannot be packed: the rows may hold only the cells
  // the check read (`ParseControl.columns`).
  const bits = cells ? packIssues(issues ?? []) : null
  let at: CellsAt = { code: 0, text: 0 }
  for (let number = blockOf(startIndex); rows.length > 0 && number <= blockOf(end - 1); number++) {
    const from = Math.max(startIndex, number * blockSize)
    const to = Math.min(end, (number + 1) * blockSize)
    const partIssues = issues?.slice(from - startIndex, to - startIndex)
    let part: string[][]
    if (cells && bits) {
      const whole = from === number * blockSize
      const made = whole ? packCells(listId, number, cells, at, to - from, bits, from - startIndex) : null
      if (made?.block) {
        packed.push(made.block)
        at = made.next
        continue
      }
      const values: string[][] = []
      for (let index = from; index < to; index++) {
        const row = cellsRow(cells, at)
        values.push(row.values)
        at = row.next
      }
      part = values
    } else {
      part = rows.slice(from - startIndex, to - startIndex)
      const block = from === number * blockSize ? packBlock(listId, number, part, partIssues) : null
      if (block) {
        packed.push(block)
        continue
      }
    }
    part.forEach((values, offset) =>
      loose.push({
        index: from + offset,
        values,
        issues: partIssues?.[offset] ?? [],
        skip: false,
        status: 'pending',
      }),
    )
  }
  return { listId, packed, loose }
}

/**
 * Stores rows new to a list as an import adds them (`prepareBlockRows`): a block they fill from its
 * first row is written packed (`PackedBlock`), rows joining a block already written (an import taken
 * up again) go into it. In the caller's transaction over `blockTables`.
 */
export async function appendBlockRows(database: LeadkeeperDb, prepared: PreparedRows): Promise<void> {
  const { listId } = prepared
  if (prepared.packed.length === 0 && prepared.loose.length === 0) return
  const written = await readBlocks(database, listId, [
    ...prepared.packed.map((block) => block.block),
    ...prepared.loose.map((row) => blockOf(row.index)),
  ])
  const packed: PackedBlock[] = []
  const loose = [...prepared.loose]
  for (const block of prepared.packed) {
    if (written.has(block.block)) loose.push(...unpackBlock(block).rows)
    else packed.push(block)
  }
  await writeBlocks(database, listId, [...packed, ...placeRows(listId, written, loose)])
}

/**
 * Walks a list's blocks in order, `batch` blocks per read: each call gets one block's rows. `onBlock`
 * may be async.
 */
export function eachBlock(
  database: LeadkeeperDb,
  listId: string,
  onBlock: (rows: RowRecord[], block: number) => void | Promise<void>,
  batch = 10,
): Promise<void> {
  return eachStoredBlock(
    database,
    listId,
    (rows, block) =>
      onBlock(
        rows.map((row) => withList(listId, row)),
        block,
      ),
    batch,
  )
}

/** Blocks `[from, to)` of a list: a part of its rows, read beside another part. */
export interface BlockRange {
  from: number
  to: number
}

/**
 * `eachBlock` of the rows as stored (without their list's id), of the blocks in `range` if given:
 * nothing copied, for a reader of every row.
 */
export async function eachStoredBlock(
  database: LeadkeeperDb,
  listId: string,
  onBlock: (rows: StoredRow[], block: number) => void | Promise<void>,
  batch = 10,
  range: BlockRange = { from: 0, to: Infinity },
): Promise<void> {
  let next = range.from
  for (;;) {
    if (next >= range.to) return
    const from = next
    const [blocks, removals] = await database.transaction('r', rowTables(database), async () => {
      const read = await database.listBlocks
        .where(':id')
        .between(key(listId, from), key(listId, range.to), true, false)
        .limit(batch)
        .toArray()
      const last = read[read.length - 1]?.block
      return [read, last === undefined ? null : await removalsBetween(database, listId, from, last)] as const
    })
    if (blocks.length === 0) return
    for (const stored of blocks) {
      const block = withRemovals(rowBlockOf(stored), removals?.get(stored.block))
      const rows: StoredRow[] = []
      for (const row of block.rows) if (row) rows.push(row)
      await onBlock(rows, block.block)
    }
    next = blocks[blocks.length - 1]!.block + 1
  }
}

/**
 * How many rows of a list are stored, counted from its last block: an import writes its rows in
 * order, one batch per transaction, so what it stored before it stopped is rows `[0, count)`.
 */
export async function storedRowCount(database: LeadkeeperDb, listId: string): Promise<number> {
  const last = await database.listBlocks
    .where(':id')
    .between(...listBlockRange(listId), true, true)
    .last()
  return last ? last.block * blockSize + blockLength(last) : 0
}

/** Deletes every block of a list; in the caller's transaction over `blockTables`. */
export async function deleteBlocks(database: LeadkeeperDb, listId: string): Promise<void> {
  for (const table of blockKeyedTables(database)) {
    await table
      .where(':id')
      .between(...listBlockRange(listId), true, true)
      .delete()
  }
  await database.blockRevs.delete(listId)
  // The query worker's columns of the list go with it: a list written anew under the same id
  // starts its revisions again, which an old snapshot's would match.
  await database.listColumns
    .where('[listId+part]')
    .between(...listBlockRange(listId), true, true)
    .delete()
}

/**
 * Drops a list's rows from `from` on: an append taken back (cancelled, cut off, or undone for good).
 * With `counted`, the rows are in the list's facet counts and are read to be counted out; their
 * blocks go by key range, but the block `from` is in keeps its rows before `from`. In the caller's
 * transaction over `blockTables` and `countTables`.
 */
export async function truncateRows(
  database: LeadkeeperDb,
  listId: string,
  from: number,
  counted = true,
): Promise<void> {
  const first = blockOf(from)
  const tally = new FacetTally()
  let kept: RowBlock | null = null
  await eachStoredBlock(
    database,
    listId,
    (rows, number) => {
      const keep: StoredRow[] = []
      for (const row of rows) {
        if (row.index < from) keep.push(row)
        else if (counted) tally.add(listId, row, -1)
      }
      if (number === first && keep.length > 0) kept = { listId, block: number, rows: keep }
    },
    10,
    { from: first, to: counted ? Infinity : first + 1 },
  )
  for (const table of blockKeyedTables(database)) {
    await table.where(':id').between(key(listId, first), [listId, Dexie.maxKey], true, true).delete()
  }
  // Shorter revisions tell the query worker the list shrank: it reads its columns anew. The block
  // kept keeps its revision, bumped as it is written again.
  const revisions = await database.blockRevs.get(listId)
  if (revisions) {
    revisions.revs.length = Math.min(revisions.revs.length, first + (kept ? 1 : 0))
    await database.blockRevs.put(revisions)
  }
  // The query worker's columns of the list are a cache of blocks some of which are gone.
  await database.listColumns
    .where('[listId+part]')
    .between(...listBlockRange(listId), true, true)
    .delete()
  if (kept) await writeBlocks(database, listId, [kept])
  await applyTally(database, tally)
}
