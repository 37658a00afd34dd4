import { describe, expect, it } from 'vitest'
import { codeBlock, facetRecordsOf, isCoded, isPacked, packBlock, rowBlockOf } from '@/db/block-shape'
import { BlockPicker, type SourceBlock } from '@/db/row-pick'
import { charCodesText } from '@/db/value-code'
import type { PackedBlock, RowBlock, StoredBlock, StoredRow } from '@/db/records'

const source = (block: StoredBlock): SourceBlock => {
  const { facets, company } = facetRecordsOf(
    isCoded(block) ? rowBlockOf(block) : (block as RowBlock | PackedBlock),
  )
  return { block, facets, company }
}

/** Rows 0 and 1 of a packed block as an import of a file leaves them: each cell followed by its delimiter. */
const separated: PackedBlock = {
  listId: 'L',
  block: 1,
  size: 2,
  text: 'Eve,Fox\nGil,Ho\n',
  layout: charCodesText(new Uint16Array([0, 2, 3, 3, 0, 2, 3, 2])),
  separated: true,
}
const packed = packBlock(
  'L',
  0,
  [
    ['Ann', 'Bo'],
    ['Cy', 'Di'],
  ],
  [[], ['missing_domain', 'duplicate']],
)!
const answered: RowBlock = {
  listId: 'L',
  block: 2,
  rows: [
    {
      index: 2000,
      values: ['Ida', 'Jo'],
      issues: [],
      skip: false,
      status: 'found',
      result: { email: 'i@j.co' },
    },
    { index: 2001, values: ['Kim', 'Lu'], issues: [], skip: true, status: 'pending' },
  ] as StoredRow[],
}
const coded = codeBlock(answered)

/** Picks rows of sources into new block 7, and says what it made and what its rows read back as. */
function pick(taken: [StoredBlock, number][]) {
  const picker = new BlockPicker('N', 7)
  for (const [block, row] of taken) expect(picker.take(source(block), row)).toBe(true)
  const made = picker.done()
  return { made, rows: rowBlockOf(made.block).rows }
}

/** The rows the sources hold at those places, numbered from block 7's first, none removed. */
function expected(taken: [StoredBlock, number][]): StoredRow[] {
  return taken.map(([block, row], at) => {
    const copy: StoredRow = { ...rowBlockOf(block).rows[row]!, index: 7_000 + at }
    delete copy.removedAt
    return copy
  })
}

describe('a block picked from the rows of stored blocks', () => {
  it('keeps coded rows coded, renumbered, their facets from their records', () => {
    expect(isCoded(coded)).toBe(true)
    const taken: [StoredBlock, number][] = [
      [coded, 1],
      [coded, 0],
    ]
    const { made, rows } = pick(taken)
    expect(isCoded(made.block)).toBe(true)
    expect(rows).toEqual(expected(taken))
    const records = facetRecordsOf({ listId: 'N', block: 7, rows })
    expect(made.facets).toEqual(records.facets)
    expect(made.company).toEqual(records.company)
  })

  it('keeps packed rows packed when their cells are kept alike, their issues with them', () => {
    for (const block of [packed, separated]) {
      const taken: [StoredBlock, number][] = [
        [block, 1],
        [block, 0],
        [block, 1],
      ]
      const { made, rows } = pick(taken)
      expect(isPacked(made.block)).toBe(true)
      expect(rows).toEqual(expected(taken))
      expect(made.facets).toEqual(facetRecordsOf({ listId: 'N', block: 7, rows }).facets)
    }
  })

  it('makes the rows and codes them when they come from blocks of different kinds', () => {
    const taken: [StoredBlock, number][] = [
      [packed, 1],
      [separated, 0],
      [coded, 0],
      [answered, 1],
    ]
    const { made, rows } = pick(taken)
    expect(isCoded(made.block)).toBe(true)
    expect(rows).toEqual(expected(taken))
    expect(made.facets).toEqual(facetRecordsOf({ listId: 'N', block: 7, rows }).facets)
  })

  it('takes no row from a hole, from what is not a row, or past a block’s end', () => {
    const sparse: StoredRow[] = []
    sparse[1] = answered.rows[0]!
    sparse[3] = answered.rows[1]!
    sparse[2] = undefined as unknown as StoredRow
    sparse[4] = null as unknown as StoredRow
    sparse[5] = answered.rows[1]!
    const holed = codeBlock({ listId: 'L', block: 3, rows: sparse })
    const picker = new BlockPicker('N', 0)
    expect(picker.take(source(holed), 0)).toBe(false)
    expect(picker.take(source(holed), 2)).toBe(false)
    expect(picker.take(source(holed), 4)).toBe(false)
    expect(picker.take(source(holed), 6)).toBe(false)
    expect(picker.take(source(packed), 2)).toBe(false)
    expect(picker.take(source(holed), 1)).toBe(true)
    expect(picker.take(source(holed), 3)).toBe(true)
    expect(picker.size).toBe(2)
  })
})
