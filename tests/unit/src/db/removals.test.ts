import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { duplicateList, editCells, redo, removeRows, restoreRows, undo } from '@/db/list-ops'
import { applyEnrichmentResults, countRows, facetCounts, rowIndexes } from '@/db/rows'
import type { LeadkeeperDb } from '@/db/schema'
import { knownToLibrary } from '@/db/library-client'
import { countedValues } from '@/db/facet-tally'
import { LocalListQueries } from '@/db/list-queries'
import { compactRemovals, removalsOfRows, setRemoval } from '@/db/removals'
import type { RowRecord } from '@/db/records'
import { allRows, rowAt } from '../support/rows'
import { asked, found, seed } from '../support/list-fixtures'
import { eachTestDatabase } from '../support/database'

let database: LeadkeeperDb
eachTestDatabase((made) => (database = made.database))

/** A list of `count` rows across blocks, its first rows answered with a mix of outcomes. */
async function answeredList(count: number, answered: number): Promise<void> {
  await seed(database, 'L', count)
  await applyEnrichmentResults(
    'L',
    Array.from({ length: answered }, (_, index) =>
      index % 3 === 0
        ? asked('L', index)
        : found('L', index, {
            contact_email_address_status: index % 2 ? 'deliverable' : 'catch_all',
            contact_location_country: index % 5 ? 'France' : 'Peru',
            // Past the changes the counts take one by one (`applyTally`): read in one range read.
            company_name: `Company ${index % 150}`,
          }),
    ),
    100,
    database,
  )
  await database.lists.update('L', { state: 'done' })
}

/** The list's counts as its rows say, each facet's values counted from scratch. */
async function countsFromRows(): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const row of await allRows(database, 'L'))
    for (const [facet, value] of countedValues(row))
      out[`${facet}:${value}`] = (out[`${facet}:${value}`] ?? 0) + 1
  return out
}

/** The list's stored counts, as `countsFromRows` keys them (the unknown values left out). */
async function storedCounts(): Promise<Record<string, number>> {
  const records = await database.facetCounts.where('[listId+facet+value]').between(['L'], ['L', []]).toArray()
  const companies = await database.companyCounts
    .where('[listId+bucket]')
    .between(['L', 0], ['L', 64])
    .toArray()
  return Object.fromEntries([
    ...records.filter((r) => r.count !== 0).map((r) => [`${r.facet}:${r.value}`, r.count]),
    ...companies.flatMap((block) => block.names.map((name, at) => [`company:${name}`, block.counts[at]])),
  ])
}

const blockRecords = () => database.listBlocks.toArray()
const revisions = async () => (await database.blockRevs.get('L'))!

describe('removals beside the blocks', () => {
  it('remove and restore rows without writing a block, the counts as the rows say', async () => {
    await answeredList(2_500, 1_600)
    const blocksBefore = await blockRecords()
    const revsBefore = (await revisions()).revs
    const removed = Array.from({ length: 1_250 }, (_, at) => at * 2)
    expect((await removeRows('L', removed, database)).ok).toBe(true)

    expect(await blockRecords()).toEqual(blocksBefore)
    expect((await revisions()).revs).toEqual(revsBefore)
    expect(await database.listRemovals.count()).toBe(3)
    expect((await rowAt(database, 'L', 0))!.removedAt).toEqual(expect.any(Number))
    expect((await rowAt(database, 'L', 1))!.removedAt).toBeUndefined()
    expect(await storedCounts()).toEqual(await countsFromRows())
    expect(await countRows('L', {}, database)).toBe(1_250)

    expect((await undo('L', database)).ok).toBe(true)
    expect(await blockRecords()).toEqual(blocksBefore)
    expect(await database.listRemovals.count()).toBe(0)
    expect(await storedCounts()).toEqual(await countsFromRows())
    expect(await countRows('L', {}, database)).toBe(2_500)
  })

  it('keep the counts right through removals, restores, undos and redos that overlap', async () => {
    await answeredList(2_200, 2_000)
    const steps: [string, number[]][] = [
      ['remove', Array.from({ length: 700 }, (_, at) => at * 3)],
      ['remove', Array.from({ length: 900 }, (_, at) => at * 2)],
      ['restore', Array.from({ length: 400 }, (_, at) => 100 + at * 5)],
      ['undo', []],
      ['undo', []],
      ['redo', []],
      ['remove', [2_199, 0, 1, 2]],
    ]
    for (const [kind, indexes] of steps) {
      const done =
        kind === 'remove'
          ? await removeRows('L', indexes, database)
          : kind === 'restore'
            ? await restoreRows('L', indexes, database)
            : kind === 'undo'
              ? await undo('L', database)
              : await redo('L', database)
      expect(done.ok).toBe(true)
      expect(await storedCounts()).toEqual(await countsFromRows())
    }
  })

  it('keep a row removed when its block is written by a change of another row', async () => {
    await answeredList(30, 10)
    await removeRows('L', [4, 5], database)
    const done = await editCells(
      'L',
      [{ index: 6, column: 1, value: 'Edited' }],
      knownToLibrary(database),
      database,
    )
    expect(done.ok).toBe(true)
    expect((await rowAt(database, 'L', 6))!.values[1]).toBe('Edited')
    expect((await rowAt(database, 'L', 4))!.removedAt).toEqual(expect.any(Number))
    expect((await rowAt(database, 'L', 5))!.removedAt).toEqual(expect.any(Number))
    // Stored apart: no block holds a row's removal.
    for (const block of await database.listBlocks.toArray())
      expect(JSON.stringify(block)).not.toContain('removedAt')
    expect(await storedCounts()).toEqual(await countsFromRows())
  })

  it('pass over removed rows in a query, and find them under "removed"', async () => {
    await answeredList(2_100, 2_100)
    await removeRows('L', [0, 1_000, 2_099], database)
    const shown = await rowIndexes('L', { hideRemoved: true }, database)
    expect(shown).toHaveLength(2_097)
    expect(shown).not.toContain(1_000)
    expect(await rowIndexes('L', { filters: { status: ['removed'] } }, database)).toEqual([0, 1_000, 2_099])
    const byStatus = await rowIndexes(
      'L',
      { hideRemoved: true, sort: { field: 'status', direction: 'asc' } },
      database,
    )
    expect(byStatus).toHaveLength(2_097)
    // Restored, a row is found under its own status again.
    await restoreRows('L', [1_000], database)
    const status = (await rowAt(database, 'L', 1_000))!.status
    expect(await rowIndexes('L', { filters: { status: [status] } }, database)).toContain(1_000)
  })

  it("reach the query worker's cached rows and columns", async () => {
    await answeredList(1_500, 1_500)
    const queries = new LocalListQueries(database)
    expect(await queries.view('L', { sort: { field: 'status', direction: 'asc' } })).toBe(1_500)
    const before = await queries.rows('L', 0, 1_500)
    expect(before.every((row) => row.removedAt === undefined)).toBe(true)
    await removeRows('L', [3, 1_400], database)
    expect(await queries.view('L', { hideRemoved: true })).toBe(1_498)
    expect(await queries.view('L', { filters: { status: ['removed'] } })).toBe(2)
    const rows = await queries.rows('L', 0, 2)
    expect(rows.map((row: RowRecord) => [row.index, typeof row.removedAt])).toEqual([
      [3, 'number'],
      [1_400, 'number'],
    ])
    // A block written since (an edit) and then another removal: the worker follows both.
    await editCells('L', [{ index: 5, column: 1, value: 'Edited' }], knownToLibrary(database), database)
    expect(await queries.view('L', { filters: { status: ['removed'] } })).toBe(2)
    await removeRows('L', [1_401], database)
    expect(await queries.view('L', { filters: { status: ['removed'] } })).toBe(3)
    expect(
      (await queries.rows('L', 0, 3)).map((row: RowRecord) => [row.index, typeof row.removedAt]),
    ).toEqual([
      [3, 'number'],
      [1_400, 'number'],
      [1_401, 'number'],
    ])
    queries.dispose()
  })

  it('go with the list into its duplicate, and changes of either stay apart', async () => {
    await answeredList(1_200, 600)
    await removeRows('L', [10, 1_100], database)
    const copy = await duplicateList('L', database)
    if (!copy.ok) throw new Error(copy.message)
    expect((await rowAt(database, copy.value.id, 10))!.removedAt).toEqual(expect.any(Number))
    expect(await countRows(copy.value.id, {}, database)).toBe(1_198)
    await restoreRows(copy.value.id, [10], database)
    expect((await rowAt(database, 'L', 10))!.removedAt).toEqual(expect.any(Number))
    expect(await countRows(copy.value.id, {}, database)).toBe(1_199)
    const counts = await facetCounts(copy.value.id, database)
    expect(counts.status.find((count) => count.value === 'removed')?.count).toBe(1)
  })
})

describe('a removal record', () => {
  it('reads back the time of each row, and holds no time no row uses', () => {
    const rows = Array.from({ length: 5 }, (_, index) => ({
      index,
      values: [],
      issues: [],
      skip: false,
      status: 'pending' as const,
      ...(index % 2 ? { removedAt: 100 + index } : {}),
    }))
    const record = removalsOfRows('L', 0, rows)!
    expect(record.times).toEqual([101, 103])
    setRemoval(record, 1, undefined)
    expect(compactRemovals(record)!.times).toEqual([103])
    setRemoval(record, 3, undefined)
    expect(compactRemovals(record)).toBeNull()
  })

  it('takes more than 255 times in a block in two bytes a row', () => {
    const record = { listId: 'L', block: 0, times: [], codes: new Uint8Array(1_000) }
    for (let at = 0; at < 300; at++) setRemoval(record, at, 1_000 + at)
    expect(record.codes).toBeInstanceOf(Uint16Array)
    const compact = compactRemovals(record)!
    expect(compact.codes).toBeInstanceOf(Uint16Array)
    expect(compact.times[compact.codes[299]! - 1]).toBe(1_299)
  })
})
