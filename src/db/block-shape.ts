import type { IndexableType, IndexableTypeArrayReadonly } from 'dexie'
import { facetOf, rowFacets } from './facet-tally'
import { packIssues, unpackIssues, type RowIssue } from '@domain/validation'
import type { BatchCells } from '@domain/read/parse'
import { charCodesText, codeValues, decodeValues, largestCode } from './value-code'
import type {
  CodedBlock,
  CompanyBlock,
  FacetBlock,
  FacetColumn,
  FacetValue,
  NarrowFacet,
  PackedBlock,
  RowBlock,
  RowFacet,
  StoredBlock,
  StoredRow,
} from './records'

/**
 * Rows to a block: few records for a million rows to write, and a screen's rows from one or two
 * records (`npm run bench`, the import and the grid).
 */
export const blockSize = 1_000

export const blockOf = (index: number): number => Math.floor(index / blockSize)

/**
 * The keys of a put into a table keyed out of line (`listBlocks`, `peopleBlocks`…): Dexie types them
 * as single values, and a compound key is an array of values, which IndexedDB takes as a key.
 */
export const outOfLine = (keys: readonly IndexableType[]): IndexableTypeArrayReadonly =>
  keys as IndexableTypeArrayReadonly

/**
 * Values dictionary-coded: value i is `values[codes[i]]`. A block has at most a few thousand
 * distinct values; most columns have a handful, one byte a code.
 */
export function codedColumn<V>(all: readonly V[]): { values: V[]; codes: Uint8Array | Uint16Array } {
  const values: V[] = []
  const known = new Map<V, number>()
  const codes = new Uint16Array(all.length)
  // Runs of one value are the common case (a column of a list not enriched yet is one value).
  let last: V | undefined
  let lastCode = -1
  for (let at = 0; at < all.length; at++) {
    const value = all[at]!
    if (lastCode < 0 || value !== last) {
      let code = known.get(value)
      if (code === undefined) {
        code = values.length
        known.set(value, code)
        values.push(value)
      }
      last = value
      lastCode = code
    }
    codes[at] = lastCode
  }
  return { values, codes: values.length <= 256 ? new Uint8Array(codes) : codes }
}

/** The facets a `FacetBlock` keeps together; the company column is a record of its own. */
export const narrowFacets = rowFacets.filter((facet): facet is NarrowFacet => facet !== 'company')

const noRow = Object.freeze({})

/**
 * Every facet of the block, one dictionary-coded column each; a hole in the block reads as 'pending',
 * as every row of a packed block does (no facet of theirs is known yet).
 */
function facetColumnsOf(block: RowBlock | PackedBlock): Record<RowFacet, FacetColumn> {
  const columns = {} as Record<RowFacet, FacetColumn>
  if (isPacked(block)) {
    for (const facet of rowFacets)
      columns[facet] = { values: [facetOf(noRow, facet)], codes: new Uint8Array(block.size) }
    return columns
  }
  const size = block.rows.length
  const cells = new Array<FacetValue>(size)
  for (const facet of rowFacets) {
    for (let at = 0; at < size; at++) cells[at] = facetOf(block.rows[at] ?? noRow, facet)
    columns[facet] = codedColumn<FacetValue>(cells)
  }
  return columns
}

/** The records a block's facets are kept in: the narrow ones together, the company column apart. */
export function facetRecordsOf(block: RowBlock | PackedBlock): { facets: FacetBlock; company: CompanyBlock } {
  const { listId, block: at } = block
  const size = blockLength(block)
  const { company, ...narrow } = facetColumnsOf(block)
  return {
    facets: { listId, block: at, size, columns: narrow },
    company: { listId, block: at, size, column: company },
  }
}

/**
 * A coded column with the values at some places set anew, as a copy: a new value joins its
 * dictionary, and one no row holds any more stays in it. Null once the dictionary would hold more
 * than twice a block's values: the block is then written whole, its dictionary made anew.
 */
function columnWith(
  column: FacetColumn,
  changes: readonly (readonly [number, FacetValue])[],
): FacetColumn | null {
  const values = column.values.slice()
  let codes = column.codes.slice()
  for (const [at, value] of changes) {
    let code = values.indexOf(value)
    if (code < 0) {
      code = values.length
      values.push(value)
      if (values.length > 2 * blockSize) return null
      if (values.length > 256 && codes instanceof Uint8Array) codes = Uint16Array.from(codes)
    }
    codes[at] = code
  }
  return { values, codes }
}

/**
 * A block's facet records with some of its rows (by their place in the block) put anew, the other
 * rows' codes kept; null where a record lacks a facet's column, a place is past its end, or a
 * dictionary would grow past twice a block's values.
 */
export function facetRecordsWith(
  facets: FacetBlock,
  company: CompanyBlock,
  rows: ReadonlyMap<number, StoredRow>,
): { facets: FacetBlock; company: CompanyBlock } | null {
  const changes = (facet: RowFacet) => [...rows].map(([at, row]) => [at, facetOf(row, facet)] as const)
  for (const at of rows.keys()) if (at >= facets.size || at >= company.size) return null
  const columns = {} as Record<NarrowFacet, FacetColumn>
  for (const facet of narrowFacets) {
    const column = facets.columns[facet] && columnWith(facets.columns[facet], changes(facet))
    if (!column) return null
    columns[facet] = column
  }
  const column = columnWith(company.column, changes('company'))
  return column && { facets: { ...facets, columns }, company: { ...company, column } }
}

export const isPacked = (block: StoredBlock): block is PackedBlock => 'layout' in block

export const isCoded = (block: StoredBlock): block is CodedBlock => 'shape' in block

/**
 * New rows of a block, from its first, packed (`PackedBlock`); `null` when a cell is too long for
 * it, or a row has too many cells (a length and a count are one char code each, at most
 * `largestCode`), for the block to be written as rows.
 */
export function packBlock(
  listId: string,
  block: number,
  rows: readonly (readonly string[])[],
  issues?: readonly (readonly RowIssue[])[],
): PackedBlock | null {
  const bits = packIssues(issues ?? [])
  let codes = 0
  for (const cells of rows) codes += 2 + cells.length
  const layout = new Uint16Array(codes)
  const all: string[] = []
  let code = 0
  for (let at = 0; at < rows.length; at++) {
    const cells = rows[at]!
    if (cells.length > largestCode) return null
    layout[code++] = bits[at] ?? 0
    layout[code++] = cells.length
    for (const cell of cells) {
      if (cell.length > largestCode) return null
      layout[code++] = cell.length
      all.push(cell)
    }
  }
  return { listId, block, size: rows.length, text: all.join(''), layout: charCodesText(layout) }
}

/** Where a walk of a batch's cells (`BatchCells`) stands: the row's first code, its first character. */
export interface CellsAt {
  code: number
  text: number
}

/**
 * New rows of a block, from its first, packed from a batch's cells (`BatchCells`: `size` rows from
 * `at`) with their issues (`bits`, a byte a row, from `bitsAt`): the file's text kept as it is,
 * each cell followed by one character (`separated`). `block` is `null` when a cell is too long or a
 * row has too many cells for a packed block (`largestCode`); `next` is where the walk stands after
 * the rows either way.
 */
export function packCells(
  listId: string,
  block: number,
  cells: BatchCells,
  at: CellsAt,
  size: number,
  bits: Uint8Array,
  bitsAt: number,
): { block: PackedBlock | null; next: CellsAt } {
  // The loops are functions of their own, of numbers and typed arrays, and this one has none: a
  // new import worker optimises it once, with what it makes known, rather than again and again
  // (a loop optimised in the middle of its first run met the objects after it unseen).
  const from = cells.layout
  const end = rowsEnd(from, at.code, size)
  // The codes from `at` are each row's count and its cells' lengths: their sum is the rows' text,
  // one character after each cell.
  const next = { code: end, text: at.text + codesSum(from, at.code, end) }
  if (largestOf(from, at.code, end) > largestCode) return { block: null, next }
  const layout = new Uint16Array(end - at.code + size)
  copyRows(from, at.code, size, bits, bitsAt, layout)
  return {
    block: {
      listId,
      block,
      size,
      text: cells.text.slice(at.text, next.text),
      layout: charCodesText(layout),
      separated: true,
    },
    next,
  }
}

/** Where `size` rows of a batch's layout (`BatchCells`) from `code` end. */
function rowsEnd(layout: Uint32Array, code: number, size: number): number {
  for (let row = 0; row < size; row++) code += 1 + layout[code]!
  return code
}

function codesSum(layout: Uint32Array, from: number, to: number): number {
  let sum = 0
  for (let code = from; code < to; code++) sum += layout[code]!
  return sum
}

function largestOf(layout: Uint32Array, from: number, to: number): number {
  let largest = 0
  for (let code = from; code < to; code++) if (layout[code]! > largest) largest = layout[code]!
  return largest
}

/** `size` rows of a batch's layout from `code`, each after its issues' byte, into a packed block's. */
function copyRows(
  from: Uint32Array,
  code: number,
  size: number,
  bits: Uint8Array,
  bitsAt: number,
  layout: Uint16Array,
): void {
  let out = 0
  for (let row = 0; row < size; row++) {
    layout[out++] = bits[bitsAt + row] ?? 0
    const end = code + 1 + from[code]!
    while (code < end) layout[out++] = from[code++]!
  }
}

/** The cells of the row of a batch's cells (`BatchCells`) at `at`, and where the next row starts. */
export function cellsRow(cells: BatchCells, at: CellsAt): { values: string[]; next: CellsAt } {
  let { code, text } = at
  const count = cells.layout[code++]!
  const values = new Array<string>(count)
  for (let cell = 0; cell < count; cell++) {
    const to = text + cells.layout[code++]!
    values[cell] = cells.text.slice(text, to)
    text = to + 1
  }
  return { values, next: { code, text } }
}

/** A packed block's rows as every other block holds them. */
export function unpackBlock(packed: PackedBlock): RowBlock {
  const { text, layout } = packed
  const gap = packed.separated ? 1 : 0
  const first = packed.block * blockSize
  const rows = new Array<StoredRow>(packed.size)
  const bits = new Uint8Array(packed.size)
  let from = 0
  let code = 0
  for (let at = 0; at < packed.size; at++) {
    bits[at] = layout.charCodeAt(code++)
    const width = layout.charCodeAt(code++)
    const values = new Array<string>(width)
    for (let cell = 0; cell < width; cell++) {
      const to = from + layout.charCodeAt(code++)
      values[cell] = text.slice(from, to)
      from = to + gap
    }
    rows[at] = { index: first + at, values, issues: [], skip: false, status: 'pending' }
  }
  const issues = unpackIssues(bits)
  for (let at = 0; at < rows.length; at++) rows[at]!.issues = issues[at]!
  return { listId: packed.listId, block: packed.block, rows }
}

/**
 * A block of rows as it is stored once its rows changed: coded (`CodedBlock`), or as it is when a
 * row holds what cannot be coded.
 */
export function codeBlock(block: RowBlock): CodedBlock | RowBlock {
  const coded = codeValues(block.rows)
  return coded ? { listId: block.listId, block: block.block, size: block.rows.length, ...coded } : block
}

/** A coded block's rows as every other block holds them. */
export function decodeBlock(coded: CodedBlock): RowBlock {
  return { listId: coded.listId, block: coded.block, rows: decodeValues(coded, coded.size) as StoredRow[] }
}

/** A block as its rows: a packed or coded block made rows, a block of rows as it is. */
export const rowBlockOf = (block: StoredBlock): RowBlock =>
  isPacked(block) ? unpackBlock(block) : isCoded(block) ? decodeBlock(block) : block

/** Rows a block holds, up to its last (a block of rows may have holes). */
export const blockLength = (block: StoredBlock): number =>
  isPacked(block) || isCoded(block) ? block.size : block.rows.length
