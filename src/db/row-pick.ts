import { blockOf, blockSize, codeBlock, facetRecordsOf, isCoded, isPacked, rowBlockOf } from './block-shape'
import { ValuePicker, isObjectValue, valueBounds, type ValueBounds } from './value-code'
import type {
  CodedBlock,
  CompanyBlock,
  FacetBlock,
  FacetColumn,
  FacetValue,
  NarrowFacet,
  PackedBlock,
  RowBlock,
  StoredBlock,
  StoredRow,
} from './records'

/*
 * Rows of a list's stored blocks copied into the blocks of another list as they are stored: a coded
 * row's codes, a packed row's cells, each row's facets from its block's facet records. None of the
 * rows is made into an object and coded again, which is most of what a copy of rows costs
 * (`npm run bench -- --only edits`, "new list from the rows shown").
 */

/** A stored block with its facet records, as read to take rows from it. */
export interface SourceBlock {
  block: StoredBlock
  /** Null where the block has none (its rows' facets are then made from the rows). */
  facets: FacetBlock | null
  company: CompanyBlock | null
}

/** What is known of a source block once a row was taken from it: its bounds, its rows made. */
interface Source extends SourceBlock {
  bounds?: ValueBounds
  packed?: Uint32Array
  rows?: RowBlock
}

/** The rows of a packed block: where each starts in its layout and its text, then where the last ends. */
function packedBounds(block: PackedBlock): Uint32Array {
  const gap = block.separated ? 1 : 0
  const bounds = new Uint32Array(2 * (block.size + 1))
  let code = 0
  let text = 0
  for (let row = 0; row < block.size; row++) {
    bounds[2 * row] = code
    bounds[2 * row + 1] = text
    code++
    const cells = block.layout.charCodeAt(code++)
    for (let cell = 0; cell < cells; cell++) text += block.layout.charCodeAt(code++) + gap
  }
  bounds[2 * block.size] = code
  bounds[2 * block.size + 1] = text
  return bounds
}

/** A facet column of picked rows, coded as `codedColumn` codes the same values. */
class ColumnPicker {
  private readonly values: FacetValue[] = []
  private readonly lookup = new Map<FacetValue, number>()
  private readonly codes = new Uint16Array(blockSize)
  private size = 0

  take(column: FacetColumn, row: number): void {
    const value = column.values[column.codes[row]!]!
    let code = this.lookup.get(value)
    if (code === undefined) {
      code = this.values.length
      this.lookup.set(value, code)
      this.values.push(value)
    }
    this.codes[this.size++] = code
  }

  done(): FacetColumn {
    const codes = this.codes.subarray(0, this.size)
    return { values: this.values, codes: this.values.length <= 256 ? new Uint8Array(codes) : codes.slice() }
  }
}

/** A block made of rows taken from source blocks, written as `prepareBlocks` would write those rows. */
export interface PickedBlock {
  block: StoredBlock
  facets: FacetBlock
  company: CompanyBlock
}

/**
 * Gathers the rows of one new block, in order, from source blocks, then makes the block: coded when
 * every row was coded, packed when every row was packed alike, else from the rows made and coded.
 */
export class BlockPicker {
  private readonly taken: [Source, number][] = []
  private readonly sources = new Map<StoredBlock, Source>()

  constructor(
    private readonly listId: string,
    /** The new block's number; its rows are numbered from its first. */
    private readonly number: number,
  ) {}

  get size(): number {
    return this.taken.length
  }

  /** Takes row `row` of `source`; false, and nothing taken, where the block has no such row. */
  take(source: SourceBlock, row: number): boolean {
    let known = this.sources.get(source.block)
    if (!known) {
      known = { ...source }
      this.sources.set(source.block, known)
    }
    const block = known.block
    if (isPacked(block) || isCoded(block)) {
      if (row >= block.size) return false
      if (isCoded(block)) {
        known.bounds ??= valueBounds(block, block.size)
        // A hole in the block's rows, or anything there that is not a row.
        if (!isObjectValue(block, known.bounds, row)) return false
      }
    } else if (!block.rows[row]) return false
    this.taken.push([known, row])
    return true
  }

  done(): PickedBlock {
    const { listId, number } = this
    const size = this.taken.length
    const first = number * blockSize
    const whole = this.taken.every(([source]) => source.facets && source.company)
    const coded = whole && this.taken.every(([source]) => isCoded(source.block))
    const packed = whole && this.packedAlike()
    let block: StoredBlock | null = null
    if (coded) {
      const picker = new ValuePicker('index', 'removedAt')
      for (let at = 0; at < size; at++) {
        const [source, row] = this.taken[at]!
        picker.take(source.block as CodedBlock, source.bounds!, row, first + at)
      }
      const values = picker.done()
      if (values) block = { listId, block: number, size, ...values }
    } else if (packed) block = this.packedBlock()
    if (!block) return this.fromRows()
    const columns = {} as Record<NarrowFacet, FacetColumn>
    const names = Object.keys(this.taken[0]![0].facets!.columns) as NarrowFacet[]
    for (const facet of names) {
      const picker = new ColumnPicker()
      for (const [source, row] of this.taken) picker.take(source.facets!.columns[facet], row)
      columns[facet] = picker.done()
    }
    const company = new ColumnPicker()
    for (const [source, row] of this.taken) company.take(source.company!.column, row)
    return {
      block,
      facets: { listId, block: number, size, columns },
      company: { listId, block: number, size, column: company.done() },
    }
  }

  /** Whether every row taken is of a packed block, their cells kept alike (`separated` or not). */
  private packedAlike(): boolean {
    const [first] = this.taken[0]!
    if (!isPacked(first.block)) return false
    const separated = first.block.separated === true
    return this.taken.every(
      ([source]) => isPacked(source.block) && (source.block.separated === true) === separated,
    )
  }

  private packedBlock(): PackedBlock {
    const layout: string[] = []
    const text: string[] = []
    for (const [source, row] of this.taken) {
      const block = source.block as PackedBlock
      const bounds = (source.packed ??= packedBounds(block))
      layout.push(block.layout.slice(bounds[2 * row], bounds[2 * row + 2]))
      text.push(block.text.slice(bounds[2 * row + 1], bounds[2 * row + 3]))
    }
    const separated = (this.taken[0]![0].block as PackedBlock).separated
    return {
      listId: this.listId,
      block: this.number,
      size: this.taken.length,
      text: text.join(''),
      layout: layout.join(''),
      ...(separated ? { separated } : {}),
    }
  }

  /** The block from its rows made, each numbered anew, as any block of rows is written. */
  private fromRows(): PickedBlock {
    const first = this.number * blockSize
    const rows = this.taken.map(([source, row], at): StoredRow => {
      source.rows ??= rowBlockOf(source.block)
      const copy: StoredRow = { ...source.rows.rows[row]!, index: first + at }
      delete copy.removedAt
      return copy
    })
    const block: RowBlock = { listId: this.listId, block: this.number, rows }
    const { facets, company } = facetRecordsOf(block)
    return { block: codeBlock(block), facets, company }
  }
}

/** The source block numbers the rows at `indexes` are in, each once, in order. */
export function sourceBlocks(indexes: ArrayLike<number>, from: number, to: number): number[] {
  const numbers: number[] = []
  let last = -1
  for (let at = from; at < to; at++) {
    const number = blockOf(indexes[at]!)
    if (number !== last) numbers.push(number)
    last = number
  }
  return [...new Set(numbers)]
}
