import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { blockTables, putRows, readRange, readRows } from '@/db/blocks'
import { facetOf, rowFacets } from '@/db/facet-tally'
import { removeRows } from '@/db/list-ops'
import { applyEnrichmentResults } from '@/db/rows'
import { rowBlockOf } from '@/db/block-shape'
import { valueBounds } from '@/db/value-code'
import type { LeadkeeperDb } from '@/db/schema'
import type { CodedBlock, FacetColumn, RowRecord } from '@/db/records'
import { allRows } from '../support/rows'
import { found, seed } from '../support/list-fixtures'
import { eachTestDatabase } from '../support/database'

let database: LeadkeeperDb
eachTestDatabase((made) => (database = made.database))

/** A list of 2,500 rows whose first block a run answered: that block is coded, the others packed. */
async function listWithCodedBlock(): Promise<void> {
  await seed(database, 'L', 2_500)
  await applyEnrichmentResults(
    'L',
    Array.from({ length: 1_000 }, (_, index) => found('L', index)),
    100,
    database,
  )
  await database.lists.update('L', { state: 'done' })
}

const stored = async (block: number) => (await database.listBlocks.get(['L', block]))!
const decoded = (column: FacetColumn, at: number) => column.values[column.codes[at]!]

/** Every row of a block's facets as its records hold them, beside what the rows say. */
async function facetsOfBlock(block: number): Promise<{ held: unknown[][]; fromRows: unknown[][] }> {
  const facets = (await database.listFacets.get(['L', block]))!
  const company = (await database.listCompanies.get(['L', block]))!
  const rows = rowBlockOf(await stored(block)).rows
  const held = rows.map((_, at) =>
    rowFacets.map((facet) => decoded(facet === 'company' ? company.column : facets.columns[facet], at)),
  )
  const fromRows = rows.map((row) => rowFacets.map((facet) => facetOf(row, facet)))
  return { held, fromRows }
}

const put = (rows: RowRecord[]) =>
  database.transaction('rw', blockTables(database), async () => putRows(database, 'L', rows))

describe('rows put into a coded block', () => {
  it('are put among the other rows as they are stored, with the facet records changed at their places', async () => {
    await listWithCodedBlock()
    const before = (await stored(0)) as CodedBlock
    expect('shape' in before).toBe(true)
    const rows = await allRows(database, 'L')
    const changed: RowRecord[] = [
      { ...rows[10]!, values: ['Anna', 'Berg', 'berg.no'], country: 'Norway', company: 'Berg AS' },
      { ...rows[999]!, status: 'not_found', emailStatus: 'not_found', note: 'checked by hand' },
    ]
    await put(changed)

    const after = (await stored(0)) as CodedBlock
    expect(after.size).toBe(1_000)
    // The rows before the first one put keep their codes; the block's names keep their places.
    const firstAt = valueBounds(before, before.size).shape[10]!
    expect(firstAt).toBeGreaterThan(0)
    expect(after.shape.slice(0, firstAt)).toBe(before.shape.slice(0, firstAt))
    expect(after.names.slice(0, before.names.length)).toEqual(before.names)
    const expected = rows.slice()
    expected[10] = changed[0]!
    expected[999] = changed[1]!
    expect(await allRows(database, 'L')).toEqual(expected)
    // A value new to the block (Norway, Berg AS) joins its dictionaries.
    const { held, fromRows } = await facetsOfBlock(0)
    expect(held).toEqual(fromRows)
    expect(held[10]).toContain('Norway')
    expect(held[10]).toContain('Berg AS')
    expect((await database.blockRevs.get('L'))!.revs[0]).toBe(3)

    // Put again, the row's old company stays in the dictionary: the other rows' codes were kept,
    // not made again from the rows.
    await put([{ ...changed[0]!, company: 'Lie ASA' }])
    const company = (await database.listCompanies.get(['L', 0]))!
    expect(company.column.values).toContain('Berg AS')
    expect(decoded(company.column, 10)).toBe('Lie ASA')
  })

  it('keep a column of more than 256 values in two bytes a code', async () => {
    await listWithCodedBlock()
    const rows = (await allRows(database, 'L')).slice(0, 1_000)
    await put(rows.slice(0, 300).map((row) => ({ ...row, company: `Company ${row.index}` })))
    const company = (await database.listCompanies.get(['L', 0]))!
    expect(company.column.codes).toBeInstanceOf(Uint16Array)
    const { held, fromRows } = await facetsOfBlock(0)
    expect(held).toEqual(fromRows)
    expect(held[299]).toContain('Company 299')
  })

  it('write the block whole once a dictionary would grow past twice its rows, made anew from them', async () => {
    await listWithCodedBlock()
    const rows = (await allRows(database, 'L')).slice(0, 1_000)
    await put(rows.map((row) => ({ ...row, company: `A ${row.index}` })))
    // 1,000 new names join the seven the block had: it is still patched.
    expect((await database.listCompanies.get(['L', 0]))!.column.values).toHaveLength(1_007)
    await put(rows.map((row) => ({ ...row, company: `B ${row.index}` })))
    const company = (await database.listCompanies.get(['L', 0]))!
    expect(company.column.values).toHaveLength(1_000)
    const { held, fromRows } = await facetsOfBlock(0)
    expect(held).toEqual(fromRows)
    expect(held[999]).toContain('B 999')
  })

  it('write the block whole where a row is removed, keeping what the row put says of its removal', async () => {
    await listWithCodedBlock()
    await removeRows('L', [5, 6], database)
    const [five, six] = [...(await readRows(database, 'L', [5, 6])).values()]
    expect(five!.removedAt).toBeDefined()
    // A row put with its removal stays removed; one put without it is kept again.
    const { removedAt: _removedAt, ...kept } = six!
    await put([
      { ...five!, note: 'still removed' },
      { ...kept, note: 'kept again' },
    ])
    const back = await readRows(database, 'L', [5, 6])
    expect(back.get(5)).toMatchObject({ note: 'still removed', removedAt: five!.removedAt })
    expect(back.get(6)!.note).toBe('kept again')
    expect(back.get(6)!.removedAt).toBeUndefined()
    const { held, fromRows } = await facetsOfBlock(0)
    expect(held).toEqual(fromRows)
  })

  it('start rows past the end of a short coded block, and fill a packed block as rows', async () => {
    await listWithCodedBlock()
    const rows = await allRows(database, 'L')
    const last = rows[2_499]!
    await put([{ ...last, note: 'answered by hand' }])
    // Block 2 (500 rows) is coded now; a row past its end is written with the block whole.
    await put([{ ...last, index: 2_500, values: ['New', 'Row', 'new.com'] }])
    const back = await allRows(database, 'L')
    expect(back).toHaveLength(2_501)
    expect(back[2_499]!.note).toBe('answered by hand')
    expect(back[2_500]!.values).toEqual(['New', 'Row', 'new.com'])
    expect((await facetsOfBlock(2)).held).toEqual((await facetsOfBlock(2)).fromRows)
    // A coded block asked for a row past its end has none.
    expect([...(await readRows(database, 'L', [2_499, 2_501, 2_999])).keys()]).toEqual([2_499])
  })
})

describe('readRows', () => {
  it('makes only the rows asked of a coded block, each with its removal, as a whole read gives them', async () => {
    await listWithCodedBlock()
    await removeRows('L', [3, 1_200], database)
    const wanted = [3, 4, 998, 1_200, 1_201, 2_600]
    const read = await readRows(database, 'L', wanted)
    const whole = await readRange(database, 'L', 0, 2_500)
    expect([...read.keys()]).toEqual([3, 4, 998, 1_200, 1_201])
    for (const [index, row] of read) expect(row).toEqual(whole[index])
    expect(read.get(3)!.removedAt).toBeDefined()
    expect(read.get(1_200)!.removedAt).toBeDefined()
    expect(read.get(4)!.removedAt).toBeUndefined()
  })
})
