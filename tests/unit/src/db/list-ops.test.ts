import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  cellProblem,
  copyName,
  duplicateList,
  maxListName,
  editCells,
  goToChange,
  listFromRows,
  listHistory,
  noteChange,
  redo,
  removeRows,
  renameList,
  restoreRows,
  undo,
} from '@/db/list-ops'
import { deleteList, planRun } from '@/db/lists'
import { applyEnrichmentResults, countRows, eachRowPage, facetCounts, listSummary, pageRows } from '@/db/rows'
import { LeadkeeperDb } from '@/db/schema'
import { knownToLibrary, libraryKnowledgeOf } from '@/db/library-client'
import type { StoredRow } from '@/db/records'
import { exportList } from '@/db/export-list'
import { BlockPicker } from '@/db/row-pick'
import { allRows, rowAt, updateRow } from '../support/rows'
import { asked, seed } from '../support/list-fixtures'

let database: LeadkeeperDb
const request = { email: true, phone: false, catchAll: false, now: Date.now() }
beforeEach(() => {
  database = new LeadkeeperDb('t-' + crypto.randomUUID())
})
afterEach(async () => {
  database.close()
  await database.delete()
})

/** A list of `count` imported rows, `answered` of them enriched, ready for the user's changes. */
async function readyList(count: number, answered = 0): Promise<void> {
  await seed(database, 'L', count)
  if (answered > 0) {
    await applyEnrichmentResults(
      'L',
      Array.from({ length: answered }, (_, index) => asked('L', index)),
      100,
      database,
    )
  }
  await database.lists.update('L', { state: 'done' })
}

const statusCount = async (value: string) =>
  (await facetCounts('L', database)).status.find((count) => count.value === value)?.count ?? 0

describe('cellProblem', () => {
  const mapping = { first_name: 0, last_name: 1, website: 2, email: 3 }

  it('refuses a website that gives no domain, an email without one, and a value no cell holds', () => {
    expect(cellProblem(mapping, 2, 'not a website')).toMatch(/not a website or a domain/)
    expect(cellProblem(mapping, 3, 'jane.doe')).toMatch(/not an email address/)
    expect(cellProblem(mapping, 0, 'x'.repeat(10 * 1024 * 1024))).toMatch(/at most 32,767 characters/)
  })

  it('takes a website as an import does (its domain), a blank, and any text in a column no rule reads', () => {
    expect(cellProblem(mapping, 2, 'https://www.globex.com/about')).toBeNull()
    expect(cellProblem(mapping, 2, '')).toBeNull()
    expect(cellProblem(mapping, 3, 'jane@globex.com')).toBeNull()
    expect(cellProblem(mapping, 5, 'anything at all')).toBeNull()
  })
})

describe('editCells', () => {
  it('changes the cell, keeps it through a new read, and records the change', async () => {
    await readyList(3)
    const done = await editCells(
      'L',
      [{ index: 1, column: 2, value: 'globex.com' }],
      knownToLibrary(database),
      database,
    )
    expect(done.ok).toBe(true)
    expect((await rowAt(database, 'L', 1))!.values).toEqual(['First1', 'Last1', 'globex.com'])
    const history = await listHistory('L', database)
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({ kind: 'edit', label: 'Edited Domain of row 2', rows: 1, undone: 0 })
  })

  it('refuses a domain that cannot exist and changes nothing', async () => {
    await readyList(3)
    const done = await editCells(
      'L',
      [{ index: 1, column: 2, value: 'globex' }],
      knownToLibrary(database),
      database,
    )
    expect(done).toEqual({ ok: false, message: expect.stringMatching(/not a website or a domain/) })
    expect((await rowAt(database, 'L', 1))!.values[2]).toBe('d1.com')
    expect(await listHistory('L', database)).toEqual([])
  })

  it('refuses a result column: results are what the service answered', async () => {
    await readyList(3)
    const done = await editCells(
      'L',
      [{ index: 1, column: 3, value: 'x' }],
      knownToLibrary(database),
      database,
    )
    expect(done.ok).toBe(false)
  })

  it('checks the edited row as an import does: a blank name is an issue, a fixed one clears it', async () => {
    await readyList(2)
    await editCells('L', [{ index: 0, column: 0, value: '' }], knownToLibrary(database), database)
    expect((await rowAt(database, 'L', 0))!.issues).toContain('missing_name')
    await editCells('L', [{ index: 0, column: 0, value: 'Jane' }], knownToLibrary(database), database)
    expect((await rowAt(database, 'L', 0))!.issues).toEqual([])
  })

  it('sets an answered row whose person changed to be sent again, keeping its earlier answer', async () => {
    await readyList(3, 3)
    const before = (await rowAt(database, 'L', 0))!
    expect(before.status).toBe('found')
    await editCells('L', [{ index: 0, column: 2, value: 'initech.com' }], knownToLibrary(database), database)
    const after = (await rowAt(database, 'L', 0))!
    expect(after.status).toBe('pending')
    expect(after.changedAt).toBeGreaterThan(0)
    expect(after.result).toBeUndefined()
    expect(after.earlier).toEqual([
      expect.objectContaining({ values: before.values, status: 'found', result: before.result }),
    ])
    // The estimate and the run: the changed row is sent, the others are known.
    const plan = await planRun(
      'L',
      { first_name: 0, last_name: 1, company_domain: 2 },
      request,
      libraryKnowledgeOf(database),
      database,
    )
    expect(plan.rows.map((row) => row.key)).toEqual(['L:0'])
    expect(plan.rows[0]).toMatchObject({ company_domain: 'initech.com' })
    // Counted as pending, no longer as found.
    expect(await statusCount('pending')).toBe(1)
    expect(await statusCount('found')).toBe(2)
  })

  it('changes nothing else when the column does not say who the row is', async () => {
    await seed(database, 'L', 2)
    await database.lists.update('L', { columns: ['First', 'Last', 'Domain', 'Notes'], state: 'done' })
    await applyEnrichmentResults('L', [asked('L', 0)], 100, database)
    // The row's issues say who it is: the library is not asked again, and they stay as they were.
    await updateRow(database, 'L', 0, { issues: ['known'] })
    const questions: string[][] = []
    const known = (identities: string[]) => {
      questions.push(identities)
      return knownToLibrary(database)(identities)
    }
    await editCells('L', [{ index: 0, column: 3, value: 'met at the fair' }], known, database)
    const row = (await rowAt(database, 'L', 0))!
    expect(row.values[3]).toBe('met at the fair')
    expect(row.status).toBe('found')
    expect(row.changedAt).toBeUndefined()
    expect(row.issues).toEqual(['known'])
    expect(questions).toEqual([])
    // A name is who the row is: the library is asked, and the issues found anew.
    await editCells('L', [{ index: 0, column: 0, value: 'Jane' }], known, database)
    expect(questions).toEqual([['jane last0@d0.com']])
    expect((await rowAt(database, 'L', 0))!.issues).toEqual([])
  })
})

describe('removeRows and restoreRows', () => {
  it('removes rows from what is shown, counted, sent and exported, and restores them as they were', async () => {
    await readyList(2500, 10)
    const removed = await removeRows('L', [0, 5, 1200, 2499], database)
    expect(removed.ok && removed.value?.rows).toBe(4)

    expect((await listSummary('L', database)).total).toBe(2496)
    expect((await listSummary('L', database)).removed).toBe(4)
    expect((await listSummary('L', database)).byStatus['found']).toBe(8)
    expect(await countRows('L', {}, database)).toBe(2496)
    expect(await countRows('L', { filters: { status: ['removed'] } }, database)).toBe(4)
    const shown = await pageRows('L', { hideRemoved: true, limit: 3 }, database)
    expect(shown.map((row) => row.index)).toEqual([1, 2, 3])

    const plan = await planRun(
      'L',
      { first_name: 0, last_name: 1, company_domain: 2 },
      request,
      libraryKnowledgeOf(database),
      database,
    )
    const sent = new Set(plan.rows.map((row) => row.key))
    expect(sent.has('L:1200')).toBe(false)
    expect(sent.has('L:2499')).toBe(false)
    expect(plan.counts.rows).toBe(2496)

    const exported: StoredRow[] = []
    await eachRowPage('L', {}, (page) => void exported.push(...page), 5000, database)
    expect(exported).toHaveLength(2496)
    expect(exported.some((row) => row.index === 1200)).toBe(false)
    const list = (await database.lists.get('L'))!
    const file = await exportList(list, { format: 'csv', database })
    const lines = (await file.blob.text()).trim().split(/\r?\n/)
    expect(lines).toHaveLength(2497)
    expect(lines.some((line) => line.startsWith('First1200,'))).toBe(false)

    const before = (await rowAt(database, 'L', 5))!
    await restoreRows('L', [5, 1200], database)
    const back = (await rowAt(database, 'L', 5))!
    expect(back.removedAt).toBeUndefined()
    expect(back.result).toEqual(before.result)
    expect((await listSummary('L', database)).total).toBe(2498)
    expect((await listSummary('L', database)).byStatus['found']).toBe(9)
  })

  it('is refused while a run of the list goes on', async () => {
    await readyList(3)
    await database.lists.update('L', { state: 'running' })
    const done = await removeRows('L', [0], database)
    expect(done.ok).toBe(false)
    expect((await rowAt(database, 'L', 0))!.removedAt).toBeUndefined()
  })
})

describe('undo, redo and the history', () => {
  it('undoes and redoes edits, removals, restores and renames in order', async () => {
    await readyList(5)
    await editCells('L', [{ index: 0, column: 0, value: 'Jane' }], knownToLibrary(database), database)
    await removeRows('L', [1, 2], database)
    await renameList('L', 'Trade fair', database)

    await undo('L', database)
    expect((await database.lists.get('L'))!.name).toBe('List L')
    await undo('L', database)
    expect((await listSummary('L', database)).total).toBe(5)
    await undo('L', database)
    expect((await rowAt(database, 'L', 0))!.values[0]).toBe('First0')
    expect((await undo('L', database)).ok && (await undo('L', database))).toEqual({ ok: true, value: null })

    await redo('L', database)
    expect((await rowAt(database, 'L', 0))!.values[0]).toBe('Jane')
    await redo('L', database)
    expect((await listSummary('L', database)).total).toBe(3)
    const history = await listHistory('L', database)
    expect(history.map((op) => [op.kind, op.undone])).toEqual([
      ['edit', 0],
      ['remove', 0],
      ['rename', 1],
    ])

    // A new change drops what was undone: it can no longer be redone.
    await editCells('L', [{ index: 3, column: 0, value: 'Ann' }], knownToLibrary(database), database)
    expect((await listHistory('L', database)).map((op) => op.kind)).toEqual(['edit', 'remove', 'edit'])
    expect((await redo('L', database)).ok && (await redo('L', database))).toEqual({ ok: true, value: null })
  })

  it('drops a change undone behind one that cannot be undone, once a new change is made', async () => {
    await readyList(3)
    await editCells('L', [{ index: 0, column: 0, value: 'Ann' }], knownToLibrary(database), database)
    // A forget is noted after the edit; the undo passes over it and undoes the edit.
    await noteChange('L', 'forget', 'Forgot a person', 1, database)
    expect((await undo('L', database)).ok).toBe(true)
    expect((await rowAt(database, 'L', 0))!.values[0]).toBe('First0')
    await editCells('L', [{ index: 1, column: 0, value: 'Bo' }], knownToLibrary(database), database)
    expect((await listHistory('L', database)).map((op) => [op.kind, op.undone])).toEqual([
      ['forget', 0],
      ['edit', 0],
    ])
    expect(await redo('L', database)).toEqual({ ok: true, value: null })
    expect((await allRows(database, 'L')).map((row) => row.values[0])).toEqual(['First0', 'Bo', 'First2'])
  })

  it('goes back to any point of the history and forward again', async () => {
    await readyList(4)
    await editCells('L', [{ index: 0, column: 0, value: 'A' }], knownToLibrary(database), database)
    await editCells('L', [{ index: 1, column: 0, value: 'B' }], knownToLibrary(database), database)
    await editCells('L', [{ index: 2, column: 0, value: 'C' }], knownToLibrary(database), database)
    await goToChange('L', 1, database)
    expect((await allRows(database, 'L')).map((row) => row.values[0])).toEqual([
      'A',
      'First1',
      'First2',
      'First3',
    ])
    await goToChange('L', 0, database)
    expect((await allRows(database, 'L')).map((row) => row.values[0])).toEqual([
      'First0',
      'First1',
      'First2',
      'First3',
    ])
    await goToChange('L', 3, database)
    expect((await allRows(database, 'L')).map((row) => row.values[0])).toEqual(['A', 'B', 'C', 'First3'])
  })

  it('survives a reopening of the database', async () => {
    await readyList(3)
    await editCells('L', [{ index: 0, column: 0, value: 'Jane' }], knownToLibrary(database), database)
    database.close()
    await database.open()
    await undo('L', database)
    expect((await rowAt(database, 'L', 0))!.values[0]).toBe('First0')
    expect((await listHistory('L', database))[0]!.undone).toBe(1)
  })

  it('never undoes what a run wrote: undoing an edit answered since keeps the answer and sets the row to be sent', async () => {
    await readyList(2)
    await editCells('L', [{ index: 0, column: 2, value: 'globex.com' }], knownToLibrary(database), database)
    await applyEnrichmentResults('L', [asked('L', 0)], 200, database)
    const answered = (await rowAt(database, 'L', 0))!
    expect(answered.status).toBe('found')
    await undo('L', database)
    const row = (await rowAt(database, 'L', 0))!
    expect(row.values[2]).toBe('d0.com')
    // The answer bought for globex.com is kept as the row's earlier answer, not thrown away.
    expect(row.status).toBe('pending')
    expect(row.earlier?.at(-1)).toMatchObject({ status: 'found', result: answered.result })
  })

  it('undoes an edit of an answered row back to its answer when nothing was run since', async () => {
    await readyList(2, 2)
    const before = (await rowAt(database, 'L', 0))!
    await editCells('L', [{ index: 0, column: 2, value: 'globex.com' }], knownToLibrary(database), database)
    await undo('L', database)
    const row = (await rowAt(database, 'L', 0))!
    expect(row.status).toBe('found')
    expect(row.result).toEqual(before.result)
    expect(row.earlier).toBeUndefined()
    expect(await statusCount('found')).toBe(2)
  })

  it('is deleted with its list', async () => {
    await readyList(2)
    await renameList('L', 'x', database)
    await deleteList('L', database)
    expect(await database.listOps.count()).toBe(0)
  })
})

describe('renameList', () => {
  it('refuses an empty name', async () => {
    await readyList(1)
    expect((await renameList('L', '   ', database)).ok).toBe(false)
  })
})

describe('lists made from a list', () => {
  it('makes a list of the rows shown, numbered anew, each keeping its result and origins', async () => {
    await readyList(30, 30)
    const made = await listFromRows('L', [4, 9, 20], 'Deliverable', {}, database)
    expect(made.ok).toBe(true)
    if (!made.ok) return
    const rows = await allRows(database, made.value.id)
    expect(rows.map((row) => [row.index, row.values[0], row.status])).toEqual([
      [0, 'First4', 'found'],
      [1, 'First9', 'found'],
      [2, 'First20', 'found'],
    ])
    expect(rows[0]!.origins).toEqual((await rowAt(database, 'L', 4))!.origins)
    expect((await listSummary(made.value.id, database)).total).toBe(3)
    expect((await database.lists.get(made.value.id))!).toMatchObject({
      rowCount: 3,
      state: 'done',
      name: 'Deliverable',
    })
  })

  it('makes a list of rows across blocks, whole blocks and a last part, counted as its rows say', async () => {
    await readyList(2_600, 1_300)
    await removeRows('L', [6], database)
    // Every other row, one past the list's end (no row: left out) and the removed one (copied kept).
    const shown = [...Array.from({ length: 1_300 }, (_, at) => at * 2), 9_999]
    const progress: number[] = []
    const made = await listFromRows(
      'L',
      shown,
      'Every other',
      { onProgress: (rows) => progress.push(rows) },
      database,
    )
    if (!made.ok) throw new Error(made.message)
    const rows = await allRows(database, made.value.id)
    expect(rows).toHaveLength(1_300)
    expect(rows.map((row) => row.index)).toEqual(Array.from({ length: 1_300 }, (_, at) => at))
    expect(rows.map((row) => row.values[0])).toEqual(shown.slice(0, 1_300).map((index) => `First${index}`))
    expect(rows.filter((row) => row.removedAt !== undefined)).toEqual([])
    expect(rows[1_299]!.status).toBe('pending')
    expect(rows[0]!.result).toEqual((await rowAt(database, 'L', 0))!.result)
    const counts = await facetCounts(made.value.id, database)
    const fromRows = new Map<string, number>()
    for (const row of rows) fromRows.set(row.status, (fromRows.get(row.status) ?? 0) + 1)
    expect(new Map(counts.status.map(({ value, count }) => [String(value), count]))).toEqual(fromRows)
    expect(counts.company.reduce((sum, { count }) => sum + count, 0)).toBe(1_300)
    const record = (await database.lists.get(made.value.id))!
    expect(record.rowCount).toBe(1_300)
    expect(record.makingFrom).toBeUndefined()
    // Told after each page written, up to every row.
    expect(progress.at(-1)).toBe(1_300)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
  })

  it('leaves nothing of a new list whose copy fails midway, a write still under way included', async () => {
    await readyList(40_500)
    // The last block fails to be made while the page before it is still being written.
    const made = BlockPicker.prototype.done
    let blocks = 0
    vi.spyOn(BlockPicker.prototype, 'done').mockImplementation(function (this: BlockPicker) {
      if (++blocks === 41) throw new Error('The block could not be made.')
      return made.call(this)
    })
    const shown = Array.from({ length: 40_500 }, (_, at) => at)
    await expect(listFromRows('L', shown, 'Broken', {}, database)).rejects.toThrow(
      'The block could not be made.',
    )
    vi.restoreAllMocks()
    expect((await database.lists.toArray()).map((list) => list.id)).toEqual(['L'])
    for (const table of [database.listBlocks, database.listFacets, database.listCompanies]) {
      const keys = (await table.toCollection().primaryKeys()) as unknown as [string, number][]
      expect(new Set(keys.map(([list]) => list))).toEqual(new Set(['L']))
    }
    expect((await database.blockRevs.toArray()).map((revs) => revs.listId)).toEqual(['L'])
    expect(new Set((await database.facetCounts.toArray()).map((count) => count.listId))).toEqual(
      new Set(['L']),
    )
    expect((await database.companyCounts.toArray()).filter((count) => count.listId !== 'L')).toEqual([])
  })

  it('duplicates a list with its rows, results and counts; the copy changes alone', async () => {
    await readyList(1500, 5)
    await removeRows('L', [3], database)
    const made = await duplicateList('L', database)
    expect(made.ok).toBe(true)
    if (!made.ok) return
    const copy = made.value.id
    expect(made.value.name).toBe('List L (copy)')
    expect(await listSummary(copy, database)).toEqual(await listSummary('L', database))
    await editCells(copy, [{ index: 1200, column: 0, value: 'Zed' }], knownToLibrary(database), database)
    expect((await rowAt(database, copy, 1200))!.values[0]).toBe('Zed')
    expect((await rowAt(database, 'L', 1200))!.values[0]).toBe('First1200')
    expect(await listHistory(copy, database)).toHaveLength(1)
    // A copy of the copy, and another copy of the list: numbered, not "(copy) (copy)".
    const again = await duplicateList(copy, database)
    const third = await duplicateList('L', database)
    expect([again.ok && again.value.name, third.ok && third.value.name]).toEqual([
      'List L (copy 2)',
      'List L (copy 3)',
    ])
  })

  it('names a copy within the longest name a list takes', () => {
    const long = 'x'.repeat(maxListName)
    expect(copyName(long, [])).toHaveLength(maxListName)
    expect(copyName(long, [copyName(long, [])])).toMatch(/ \(copy 2\)$/)
    expect(copyName('Leads (copy 4)', ['Leads'])).toBe('Leads (copy)')
  })
})
