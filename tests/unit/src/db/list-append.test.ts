import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { abandonAppend, beginAppend, cutOff, finishAppend, matchColumns } from '@/db/list-append'
import { checkHere, placeCells, storeRows } from '@/db/import-rows'
import { appendRows, eachRowBefore, setSkip } from '@/db/lists'
import { duplicateList, editCells, listHistory, redo, renameList, restoreRows, undo } from '@/db/list-ops'
import { facetCounts, listSummary } from '@/db/rows'
import { exportList } from '@/db/export-list'
import { knownToLibrary } from '@/db/library-client'
import { LeadkeeperDb } from '@/db/schema'
import { rowAt } from '../support/rows'
import { seed } from '../support/list-fixtures'

let database: LeadkeeperDb
beforeEach(() => {
  database = new LeadkeeperDb('t-' + crypto.randomUUID())
})
afterEach(async () => {
  database.close()
  await database.delete()
})

async function* bytes(text: string) {
  yield new TextEncoder().encode(text)
}

/** A list of `count` imported rows (First/Last/Domain), ready for the user's changes. */
async function readyList(count: number): Promise<void> {
  await seed(database, 'L', count)
  await database.lists.update('L', { state: 'done' })
}

/**
 * Adds a CSV's rows to list L as the import worker does: the list's own rows seen by the check,
 * the file's rows placed in the list's columns and stored after them. Not finished.
 */
async function storeAppend(csv: string, fileName = 'more.csv') {
  const fileColumns = csv.split('\n')[0]!.split(',')
  const list = (await database.lists.get('L'))!
  const match = matchColumns(list.columns, fileColumns)
  const begun = await beginAppend('L', fileName, database)
  if (!begun.ok) throw new Error(begun.message)
  const from = begun.value.appending!.from
  const lists = {
    // As the import worker stores an append's rows: not counted until they are the list's.
    appendRows: (...args: Parameters<typeof appendRows>) =>
      appendRows(args[0], args[1], args[2], args[3], args[4], database, false),
    knownIdentities: async () => new Set<string>(),
  }
  const checker = checkHere({ mapping: list.mapping }, lists)
  await eachRowBefore('L', from, (rows) => checker.see?.(rows), database)
  const result = await storeRows(
    bytes(csv),
    { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: fileColumns.length },
    {
      listId: 'L',
      mapping: list.mapping,
      append: { from, targets: match.targets, width: match.columns.length },
    },
    lists,
    { batchSize: 500 },
    checker,
  )
  return { result, match, from }
}

const statusCount = async (value: string) =>
  (await facetCounts('L', database)).status.find((count) => count.value === value)?.count ?? 0

async function exported(): Promise<string[]> {
  const list = (await database.lists.get('L'))!
  const file = await exportList(list, { format: 'csv', database })
  return (await file.blob.text())
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/)
}

describe('matchColumns', () => {
  it('matches by name whatever the case and spaces, and adds the file’s other columns after the list’s', () => {
    const match = matchColumns(['First', 'Last', 'Domain'], ['domain', ' LAST ', 'Title', 'First'])
    expect(match).toEqual({
      targets: [2, 1, 3, 0],
      columns: ['First', 'Last', 'Domain', 'Title'],
      matched: 3,
    })
  })

  it('takes the user’s choice over the names, one file column a list column', () => {
    const match = matchColumns(['First', 'Last', 'Domain'], ['Given', 'Family', 'Domain'], [0, 1, 0])
    expect(match.targets).toEqual([0, 1, 3])
    expect(match.columns).toEqual(['First', 'Last', 'Domain', 'Domain (2)'])
  })

  it('says when no column of the file is one of the list’s', () => {
    expect(matchColumns(['First', 'Last'], ['a', 'b']).matched).toBe(0)
  })
})

describe('placeCells', () => {
  it('puts each cell in its list column, empty where the file has none, past the list’s the cells past the header', () => {
    const append = { from: 0, targets: [2, 0, 3], width: 4 }
    expect(placeCells([['d.com', 'Ann', 'x', 'extra', 'more'], ['e.com']], append)).toEqual([
      ['Ann', '', 'd.com', 'x', 'extra', 'more'],
      ['', '', 'e.com', ''],
    ])
  })
})

describe('an append', () => {
  const csv = [
    'domain,LAST,First,Title',
    'd1.com,Last1,First1,CEO',
    'new.com,New,Person,CTO',
    'new.com,new,person,CFO',
  ].join('\n')

  it('adds the rows after the list’s in its columns, finds a repeat of its own rows, and is one change', async () => {
    await readyList(1500)
    const { result, match, from } = await storeAppend(csv)
    expect(from).toBe(1500)
    // Row 1 of the list (First1 Last1 d1.com) again, and a repeat within the file.
    expect(result.validation.counts.duplicate).toBe(2)
    expect(result.validation.examples.duplicate.map((example) => example.index)).toEqual([1500, 1502])
    // Not the list's rows until finished: nothing else may change it meanwhile.
    expect(
      await editCells('L', [{ index: 0, column: 0, value: 'X' }], knownToLibrary(database), database),
    ).toMatchObject({
      ok: false,
      message: expect.stringContaining('being added'),
    })

    const done = await finishAppend('L', result.parse.rows, match.columns, 0, database)
    expect(done.ok && done.value).toMatchObject({
      kind: 'append',
      label: 'Added 3 rows from “more.csv”',
      rows: 3,
    })
    const list = (await database.lists.get('L'))!
    expect(list).toMatchObject({ rowCount: 1503, columns: ['First', 'Last', 'Domain', 'Title'] })
    expect(list.appending).toBeUndefined()
    expect((await rowAt(database, 'L', 1500))!).toMatchObject({
      values: ['First1', 'Last1', 'd1.com', 'CEO'],
      issues: ['duplicate'],
    })
    expect((await rowAt(database, 'L', 1501))!).toMatchObject({
      values: ['Person', 'New', 'new.com', 'CTO'],
      issues: [],
    })
    expect((await listSummary('L', database)).total).toBe(1503)
    expect(await statusCount('pending')).toBe(1503)

    const lines = await exported()
    expect(lines[0]).toMatch(/^First,Last,Domain,Title,/)
    expect(lines).toHaveLength(1504)
    expect(lines[1502]).toMatch(/^Person,New,new\.com,CTO,/)
    expect(lines[1]).toMatch(/^First0,Last0,d0\.com,,/)
  })

  it('is taken back by undo, kept removed for the redo, and dropped once a new change is made', async () => {
    await readyList(1500)
    const { result, match } = await storeAppend(csv)
    await finishAppend('L', result.parse.rows, match.columns, 0, database)

    expect((await undo('L', database)).ok).toBe(true)
    expect((await database.lists.get('L'))!.columns).toEqual(['First', 'Last', 'Domain'])
    expect((await listSummary('L', database)).total).toBe(1500)
    expect(await statusCount('pending')).toBe(1500)
    expect(await statusCount('removed')).toBe(3)
    expect(await exported()).toHaveLength(1501)
    // Its rows come back with the redo, not one by one.
    expect(await restoreRows('L', [1501], database)).toMatchObject({
      ok: false,
      message: expect.stringContaining('Redo brings its rows back'),
    })

    expect((await redo('L', database)).ok).toBe(true)
    expect((await database.lists.get('L'))!.columns).toEqual(['First', 'Last', 'Domain', 'Title'])
    expect((await listSummary('L', database)).total).toBe(1503)
    expect(await statusCount('removed')).toBe(0)
    expect((await exported())[1502]).toMatch(/^Person,New,new\.com,CTO,/)

    await undo('L', database)
    await renameList('L', 'Renamed', database)
    expect((await database.lists.get('L'))!.rowCount).toBe(1500)
    expect(await rowAt(database, 'L', 1500)).toBeUndefined()
    expect((await rowAt(database, 'L', 1499))!.values).toEqual(['First1499', 'Last1499', 'd1.com'])
    expect(await statusCount('removed')).toBe(0)
    expect((await listSummary('L', database)).total).toBe(1500)
    expect((await listHistory('L', database)).map((op) => op.kind)).toEqual(['rename'])
  })

  it('undone for good with rows after it, keeps its rows removed without the cells of the columns gone', async () => {
    await readyList(1500)
    const { result, match } = await storeAppend(csv)
    await finishAppend('L', result.parse.rows, match.columns, 0, database)
    await undo('L', database)
    // Rows added outside the history since (a search's people added to the list).
    await appendRows('L', 1503, [['Sam', 'Lee', 'lee.com']], undefined, undefined, database)
    await database.lists.update('L', { rowCount: 1504 })
    await renameList('L', 'Renamed', database)
    expect((await database.lists.get('L'))!.rowCount).toBe(1504)
    expect((await rowAt(database, 'L', 1501))!).toMatchObject({ values: ['Person', 'New', 'new.com'] })
    expect((await rowAt(database, 'L', 1501))!.removedAt).toBeDefined()
    expect(await statusCount('removed')).toBe(3)
    expect((await restoreRows('L', [1501], database)).ok).toBe(true)
    expect((await listSummary('L', database)).total).toBe(1502)
  })

  it('undone, is not copied into a duplicate of the list, which has no redo', async () => {
    await readyList(1500)
    const { result, match } = await storeAppend(csv)
    await finishAppend('L', result.parse.rows, match.columns, 0, database)
    await undo('L', database)
    const copy = await duplicateList('L', database)
    expect(copy.ok && copy.value).toMatchObject({ rowCount: 1500, columns: ['First', 'Last', 'Domain'] })
    const id = copy.ok ? copy.value.id : ''
    expect(await rowAt(database, id, 1500)).toBeUndefined()
    expect((await listSummary(id, database)).total).toBe(1500)
    expect((await facetCounts(id, database)).status.map((count) => count.value)).toEqual(['pending'])
    // The list itself keeps its redo.
    expect((await redo('L', database)).ok).toBe(true)
    expect((await listSummary('L', database)).total).toBe(1503)
  })

  it('skips only its own rows when the user chooses to skip a kind of issue', async () => {
    await readyList(10)
    await database.lists.update('L', { mapping: { first_name: 0, last_name: 1, email: 2 } })
    const { result, match, from } = await storeAppend('First,Last,Domain\nA,B,gmail.com')
    await setSkip('L', ['personal_domain'], true, database, from)
    await finishAppend('L', result.parse.rows, match.columns, 0, database)
    expect((await rowAt(database, 'L', 10))!.skip).toBe(true)
  })

  it('cancelled or cut off, leaves the list as it was, blocks and counts, and another can follow', async () => {
    await readyList(1500)
    const many = ['First,Last,Domain', ...Array.from({ length: 1200 }, (_, i) => `N${i},M${i},n.com`)].join(
      '\n',
    )
    await storeAppend(many)
    // Stored, not yet the list's: the list does not show them.
    expect(await statusCount('pending')).toBe(1500)
    expect((await listSummary('L', database)).total).toBe(1500)
    expect((await cutOff(database)).map((list) => list.id)).toEqual(['L'])

    await abandonAppend('L', database)
    const list = (await database.lists.get('L'))!
    expect(list.appending).toBeUndefined()
    expect(list.rowCount).toBe(1500)
    expect(await statusCount('pending')).toBe(1500)
    expect(await rowAt(database, 'L', 1500)).toBeUndefined()
    expect(await rowAt(database, 'L', 2600)).toBeUndefined()
    expect((await rowAt(database, 'L', 1499))!.values).toEqual(['First1499', 'Last1499', 'd1.com'])
    expect((await database.blockRevs.get('L'))!.revs).toHaveLength(2)
    expect(await exported()).toHaveLength(1501)
    expect(await listHistory('L', database)).toEqual([])

    const again = await storeAppend(csv)
    expect(again.from).toBe(1500)
  })

  it('names the cells past the file’s header by position, after the columns it adds', async () => {
    await readyList(2)
    const { result, match } = await storeAppend('First,Last,Domain,Title\nA,B,c.com,CEO,spare')
    expect(result.parse.widest).toBe(5)
    await finishAppend('L', result.parse.rows, match.columns, match.columns.length + 1, database)
    expect((await database.lists.get('L'))!.columns).toEqual(['First', 'Last', 'Domain', 'Title', 'Column 5'])
    expect((await rowAt(database, 'L', 2))!.values).toEqual(['A', 'B', 'c.com', 'CEO', 'spare'])
  })

  it('is refused while a run of the list goes on', async () => {
    await readyList(3)
    await database.lists.update('L', { state: 'running' })
    expect(await beginAppend('L', 'more.csv', database)).toEqual({
      ok: false,
      message: 'A run of this list is going on: rows can be added once it has finished.',
    })
    expect((await database.lists.get('L'))!.appending).toBeUndefined()
  })
})
