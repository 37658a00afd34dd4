import 'fake-indexeddb/auto'
import { describe, expect, it, vi } from 'vitest'
import { blockTables, deleteBlocks, putRows } from '@/db/blocks'
import { LocalListQueries, quietAfterMs } from '@/db/list-queries'
import { loadColumns, positionsOf, usesCompany } from '@/db/row-query'
import { LeadkeeperDb } from '@/db/schema'
import type { ListRecord, RowRecord } from '@/db/records'

const freshDb = () => new LeadkeeperDb('q-' + crypto.randomUUID())

const statuses = ['deliverable', 'catch_all', undefined] as const

/** 2,500 rows over three blocks: the last one partly filled. */
function rows(listId: string, count = 2_500): RowRecord[] {
  return Array.from({ length: count }, (_, index): RowRecord => {
    const emailStatus = statuses[index % 3]
    return {
      listId,
      index,
      values: [`F${index}`],
      issues: [],
      skip: false,
      status: emailStatus ? 'found' : 'pending',
      ...(emailStatus ? { emailStatus } : {}),
      ...(index % 4 === 0 ? { country: index % 8 === 0 ? 'Spain' : 'France' } : {}),
      ...(index % 5 === 0 ? { hasPhone: 1 as const } : {}),
      ...(index % 6 === 0 ? { company: `Acme ${index % 4}` } : {}),
    }
  })
}

async function seeded(listId = 'L') {
  const database = freshDb()
  await database.transaction('rw', blockTables(database), async () => putRows(database, listId, rows(listId)))
  return database
}

/** Counts the facet and company records a database reads. */
function countingReads(database: LeadkeeperDb): { facets: number; companies: number } {
  const counter = { facets: 0, companies: 0 }
  database.listFacets.hook('reading', (record) => {
    counter.facets += 1
    return record
  })
  database.listCompanies.hook('reading', (record) => {
    counter.companies += 1
    return record
  })
  return counter
}

describe('queries over facet columns', () => {
  it('filters by every chosen facet, in import order', async () => {
    const database = await seeded()
    const columns = await loadColumns(database, 'L')
    expect(columns.size).toBe(2_500)
    const spainDeliverable = positionsOf(columns, {
      filters: { country: ['Spain'], emailStatus: ['deliverable'] },
    })
    const expected = rows('L').filter((row) => row.country === 'Spain' && row.emailStatus === 'deliverable')
    expect(Array.from(spainDeliverable)).toEqual(expected.map((row) => row.index))
    // The unknown value ('' for a descriptive facet) finds the rows without one.
    const unknown = positionsOf(columns, { filters: { emailStatus: [''] } })
    expect(unknown.length).toBe(rows('L').filter((row) => !row.emailStatus).length)
    expect(positionsOf(columns, { filters: { country: ['Peru'] } }).length).toBe(0)
  })

  it('reads a list of many blocks a slice at a time, every row in its place', async () => {
    // 41 blocks: more than two range reads of 16, the last block partly filled.
    const count = 40_500
    const database = freshDb()
    await database.transaction('rw', blockTables(database), async () =>
      putRows(database, 'L', rows('L', count)),
    )
    const columns = await loadColumns(database, 'L')
    expect(columns.size).toBe(count)
    const spain = positionsOf(columns, { filters: { country: ['Spain'] } })
    const expected = rows('L', count).filter((row) => row.country === 'Spain')
    expect(Array.from(spain)).toEqual(expected.map((row) => row.index))
    expect(spain[spain.length - 1]).toBe(40_496)
  })

  it("sorts by a facet's value, unknown first, ties in import order; desc reverses", async () => {
    const columns = await loadColumns(await seeded(), 'L')
    const asc = Array.from(positionsOf(columns, { sort: { field: 'emailStatus', direction: 'asc' } }))
    expect(asc).toHaveLength(2_500)
    const byStatus = (status: string | undefined) =>
      rows('L')
        .filter((row) => row.emailStatus === status)
        .map((row) => row.index)
    expect(asc).toEqual([...byStatus(undefined), ...byStatus('catch_all'), ...byStatus('deliverable')])
    const desc = Array.from(positionsOf(columns, { sort: { field: 'emailStatus', direction: 'desc' } }))
    expect(desc).toEqual([...asc].reverse())
    const phones = Array.from(positionsOf(columns, { sort: { field: 'hasPhone', direction: 'asc' } }))
    expect(phones.slice(-500).every((index) => index % 5 === 0)).toBe(true)
  })

  it('reloads only the blocks written since, and sees their change', async () => {
    const database = await seeded()
    const before = await loadColumns(database, 'L')
    expect(before.revs).toEqual([1, 1, 1])
    const row = rows('L')[1_200]!
    await database.transaction('rw', blockTables(database), async () =>
      putRows(database, 'L', [{ ...row, emailStatus: 'undeliverable', status: 'found' }]),
    )
    const after = await loadColumns(database, 'L', before)
    expect(after.revs).toEqual([1, 2, 1])
    expect(Array.from(positionsOf(after, { filters: { emailStatus: ['undeliverable'] } }))).toEqual([1_200])
    expect(positionsOf(after, { filters: { emailStatus: ['deliverable', 'catch_all', ''] } }).length).toBe(
      2_499,
    )
  })
})

describe('the company column, a record of its own', () => {
  it('is read only by a query that filters or sorts by company, and follows the blocks written since', async () => {
    const database = await seeded()
    const counter = countingReads(database)
    const narrow = await loadColumns(database, 'L', undefined, false)
    expect(counter.companies).toBe(0)
    expect(narrow.companyRevs).toBeNull()
    const deliverable = rows('L').filter((row) => row.emailStatus === 'deliverable')
    expect(Array.from(positionsOf(narrow, { filters: { emailStatus: ['deliverable'] } }))).toEqual(
      deliverable.map((row) => row.index),
    )

    const query = { filters: { company: ['Acme 2'] } }
    expect(usesCompany(query)).toBe(true)
    expect(usesCompany({ sort: { field: 'company', direction: 'asc' } })).toBe(true)
    expect(usesCompany({ filters: { emailStatus: ['deliverable'] } })).toBe(false)
    const all = await loadColumns(database, 'L', narrow, true)
    expect(counter.companies).toBe(3)
    expect(all.companyRevs).toEqual([1, 1, 1])
    const acme2 = rows('L').filter((row) => row.company === 'Acme 2')
    expect(Array.from(positionsOf(all, query))).toEqual(acme2.map((row) => row.index))

    // A row of block 1 changes company: a query without company leaves that column as it was; the
    // next query by company reads it again (a list of three blocks, in one range read).
    const row = rows('L')[1_201]!
    await database.transaction('rw', blockTables(database), async () =>
      putRows(database, 'L', [{ ...row, company: 'Acme 2' }]),
    )
    // The write reads the records it changes; from here on, the queries' reads alone.
    counter.companies = 0
    const again = await loadColumns(database, 'L', all, false)
    expect(again.revs).toEqual([1, 2, 1])
    expect(again.companyRevs).toEqual([1, 1, 1])
    expect(counter.companies).toBe(0)
    const fresh = await loadColumns(database, 'L', again, true)
    expect(counter.companies).toBeGreaterThan(0)
    expect(fresh.companyRevs).toEqual([1, 2, 1])
    expect(Array.from(positionsOf(fresh, query))).toEqual(
      [...acme2.map((one) => one.index), 1_201].sort((a, b) => a - b),
    )
  })

  it('is left unread by the grid until a filter asks for it; a sort by company reads it', async () => {
    const database = await seeded()
    const counter = countingReads(database)
    const queries = new LocalListQueries(database)
    const catchAll = rows('L').filter((row) => row.emailStatus === 'catch_all').length
    expect(await queries.view('L', { filters: { emailStatus: ['catch_all'] } })).toBe(catchAll)
    expect(counter.companies).toBe(0)
    expect(await queries.view('L', { sort: { field: 'company', direction: 'desc' } })).toBe(2_500)
    expect(counter.companies).toBe(3)
    const first = await queries.rows('L', 0, 3)
    expect(first.map((one) => one.company)).toEqual(['Acme 2', 'Acme 2', 'Acme 2'])
    queries.dispose()
  })
})

describe('the view the grid reads', () => {
  it('answers a view with its count and its rows by position; a plain view is counted by the list', async () => {
    const database = await seeded()
    const queries = new LocalListQueries(database)
    expect(await queries.view('L', {})).toBeNull()
    expect((await queries.rows('L', 998, 4)).map((row) => row.index)).toEqual([998, 999, 1_000, 1_001])
    expect((await queries.rows('L', 2_498, 10)).map((row) => row.index)).toEqual([2_498, 2_499])
    const count = await queries.view('L', {
      filters: { country: ['Spain'] },
      sort: { field: 'index', direction: 'desc' },
    })
    expect(count).toBe(313)
    const page = await queries.rows('L', 0, 3)
    expect(page.map((row) => row.index)).toEqual([2_496, 2_488, 2_480])
    expect(page.every((row) => row.listId === 'L' && row.country === 'Spain')).toBe(true)
  })

  it('reads the columns ahead while rows are read, and a view asked meanwhile waits for them', async () => {
    const database = await seeded()
    const queries = new LocalListQueries(database)
    const warming = queries.warm('L')
    const [rowsMeanwhile, count] = await Promise.all([
      queries.rows('L', 0, 2),
      queries.view('L', { filters: { country: ['Spain'] } }),
      warming,
    ])
    expect(rowsMeanwhile.map((row) => row.index)).toEqual([0, 1])
    expect(count).toBe(313)
  })

  it('reads a changed block again rather than serving the cached one', async () => {
    const database = await seeded()
    const queries = new LocalListQueries(database)
    expect((await queries.rows('L', 5, 1))[0]!.values).toEqual(['F5'])
    const row = rows('L')[5]!
    await database.transaction('rw', blockTables(database), async () =>
      putRows(database, 'L', [{ ...row, values: ['Changed'] }]),
    )
    expect((await queries.rows('L', 5, 1))[0]!.values).toEqual(['Changed'])
  })

  it('reads the first block of the list last worked on as it starts: its first rows need no read', async () => {
    const database = await seeded('L')
    await database.transaction('rw', blockTables(database), async () => putRows(database, 'M', rows('M', 10)))
    const list = (id: string, updatedAt: number, state: ListRecord['state'] = 'ready'): ListRecord => ({
      id,
      name: id,
      createdAt: 0,
      updatedAt,
      source: { fileName: `${id}.csv`, size: 0, encoding: 'utf-8', delimiter: ',', hasHeader: true },
      columns: ['First'],
      mapping: {},
      rowCount: id === 'L' ? 2_500 : 10,
      state,
      jobIds: [],
      creditsSpent: 0,
    })
    // The newest is still being imported: the one worked on before it is read.
    await database.lists.bulkPut([list('M', 1), list('L', 2), list('I', 3, 'importing')])
    const queries = new LocalListQueries(database)
    await queries.prime()
    const ranges = vi.spyOn(database.listBlocks, 'where')
    const keys = vi.spyOn(database.listBlocks, 'bulkGet')
    const read = () => ranges.mock.calls.length + keys.mock.calls.length
    expect((await queries.rows('L', 0, 3)).map((row) => row.index)).toEqual([0, 1, 2])
    expect(read()).toBe(0)
    // Its second block, and another list, are read as before.
    expect((await queries.rows('L', 1_000, 1)).map((row) => row.index)).toEqual([1_000])
    expect(read()).toBe(1)
    expect((await queries.rows('M', 0, 2)).map((row) => row.index)).toEqual([0, 1])
    expect(read()).toBe(2)

    // A worker asked for a list before it read reads nothing ahead: that list's first rows wait for
    // no other list's block.
    const asked = new LocalListQueries(database)
    await asked.prime(() => true)
    expect(read()).toBe(2)
    expect((await asked.rows('M', 0, 1)).map((row) => row.index)).toEqual([0])
    expect(read()).toBe(3)
  })
})

describe("the list's columns kept whole, for a first filter after a start", () => {
  /** 20,500 rows: 21 blocks, more than the 16 a snapshot may lag by. */
  const count = 20_500

  async function big(listId = 'L') {
    const database = freshDb()
    await database.transaction('rw', blockTables(database), async () =>
      putRows(database, listId, rows(listId, count)),
    )
    return database
  }

  const expected = (listId: string, keep: (row: RowRecord) => boolean) =>
    rows(listId, count)
      .filter(keep)
      .map((row) => row.index)

  it('answers a new instance from the stored columns, reading only the blocks written since', async () => {
    const database = await big()
    const first = new LocalListQueries(database)
    await first.view('L', {})
    await first.warm('L')
    // The narrow facets are read ahead; the company's once the grid is quiet, and both stored then.
    expect(await database.listColumns.count()).toBe(0)
    await first.whenQuiet()
    // Nothing changed since: nothing more to write.
    expect(await first.saveColumns()).toBe(false)
    first.dispose()
    expect((await database.listColumns.toArray()).map((snapshot) => snapshot.part).sort()).toEqual([
      'company',
      'narrow',
    ])

    const counter = countingReads(database)
    const started = new LocalListQueries(database)
    const deliverable = expected('L', (row) => row.emailStatus === 'deliverable')
    expect(await started.view('L', { filters: { emailStatus: ['deliverable'] } })).toBe(deliverable.length)
    expect((await started.rows('L', 0, deliverable.length)).map((row) => row.index)).toEqual(deliverable)
    const acme2 = expected('L', (row) => row.company === 'Acme 2')
    expect(acme2.length).toBeGreaterThan(500)
    expect(await started.view('L', { filters: { company: ['Acme 2'] } })).toBe(acme2.length)
    expect((await started.rows('L', 0, acme2.length)).map((row) => row.index)).toEqual(acme2)
    expect(counter).toEqual({ facets: 0, companies: 0 })
    started.dispose()

    // A row of block 3 changes: the next start reads that block's records and no other.
    const row = rows('L', count)[3_300]!
    await database.transaction('rw', blockTables(database), async () =>
      putRows(database, 'L', [{ ...row, emailStatus: 'undeliverable', company: 'Acme 9' }]),
    )
    // The write reads the records it changes; from here on, the queries' reads alone.
    Object.assign(counter, { facets: 0, companies: 0 })
    const later = new LocalListQueries(database)
    expect(await later.view('L', { filters: { emailStatus: ['undeliverable'] } })).toBe(1)
    expect(await later.view('L', { filters: { company: ['Acme 9'] } })).toBe(1)
    expect((await later.rows('L', 0, 5)).map((one) => one.index)).toEqual([3_300])
    expect(counter).toEqual({ facets: 1, companies: 1 })
    // One block behind is not worth a write of the whole columns.
    expect(await later.saveColumns()).toBe(false)
    later.dispose()
  })

  it('is written again once the list has changed in 16 blocks or more, and not for a small list', async () => {
    const database = await big()
    const queries = new LocalListQueries(database)
    await queries.view('L', { filters: { country: ['Spain'] } })
    expect(await queries.saveColumns()).toBe(true)
    // Only the part loaded is stored: the company's was not read.
    expect((await database.listColumns.toArray()).map((snapshot) => snapshot.part)).toEqual(['narrow'])
    const changed = rows('L', count)
      .filter((row) => row.index % 1_000 === 7 && row.index < 16_000)
      .map((row) => ({ ...row, country: 'Peru' }))
    // Fifteen blocks behind: not yet worth a write; sixteen: written.
    await database.transaction('rw', blockTables(database), async () =>
      putRows(database, 'L', changed.slice(0, 15)),
    )
    expect(await queries.view('L', { filters: { country: ['Peru'] } })).toBe(15)
    expect(await queries.saveColumns()).toBe(false)
    await database.transaction('rw', blockTables(database), async () =>
      putRows(database, 'L', changed.slice(15)),
    )
    expect(await queries.view('L', { filters: { country: ['Peru'] } })).toBe(16)
    expect(await queries.saveColumns()).toBe(true)
    queries.dispose()
    const counter = countingReads(database)
    const started = new LocalListQueries(database)
    expect(await started.view('L', { filters: { country: ['Peru'] } })).toBe(16)
    expect(counter.facets).toBe(0)
    started.dispose()

    const small = await seeded('S')
    const few = new LocalListQueries(small)
    await few.warm('S')
    expect(await few.saveColumns()).toBe(false)
    expect(await small.listColumns.count()).toBe(0)
    few.dispose()
  })

  it('follows a list that grew, and a dictionary too large for one or two bytes a code', async () => {
    // Rows with a company of their own: 70,500 names, stored four bytes a code; the last block half full.
    const firms = (from: number, to: number) =>
      rows('L', to)
        .slice(from)
        .map((row) => ({ ...row, company: `Firm ${row.index}` }))
    const database = freshDb()
    await database.transaction('rw', blockTables(database), async () =>
      putRows(database, 'L', firms(0, 70_500)),
    )
    const first = new LocalListQueries(database)
    await first.view('L', {})
    await first.warm('L')
    await first.whenQuiet()
    first.dispose()
    const stored = await database.listColumns.get(['L', 'company'])
    expect(stored?.columns.company?.codes).toBeInstanceOf(Int32Array)
    expect((await database.listColumns.get(['L', 'narrow']))?.columns.country?.codes).toBeInstanceOf(
      Uint8Array,
    )

    // The list grows: its last block fills up and three more follow, with names new and known.
    const more = firms(70_500, 73_900).map((row) =>
      row.index % 2 === 0 ? row : { ...row, company: `Firm ${row.index - 70_000}` },
    )
    await database.transaction('rw', blockTables(database), async () => putRows(database, 'L', more))
    const started = new LocalListQueries(database)
    expect(await started.view('L', { filters: { company: ['Firm 70600', 'Firm 73898'] } })).toBe(2)
    expect((await started.rows('L', 0, 5)).map((row) => row.index)).toEqual([70_600, 73_898])
    // A known name, now also in a new row.
    expect(await started.view('L', { filters: { company: ['Firm 3001'] } })).toBe(2)
    expect((await started.rows('L', 0, 5)).map((row) => row.index)).toEqual([3_001, 73_001])
    const spain = rows('L', 73_900).filter((row) => row.country === 'Spain')
    expect(await started.view('L', { filters: { country: ['Spain'] } })).toBe(spain.length)
    started.dispose()
  })

  // The two loads' reads run one after the other in fake IndexedDB, so this does not force the
  // interleaving `loadColumns` guards against (the read ahead placing the stored column again after
  // the filter placed it and the block written since); it checks what both together answer.
  it('answers a filter by company with the read ahead loading the same column beside it', async () => {
    const database = await big()
    const first = new LocalListQueries(database)
    await first.view('L', {})
    await first.warm('L')
    await first.whenQuiet()
    expect(await database.listColumns.count()).toBe(2)
    first.dispose()
    // Block 3 changes after the columns were stored.
    const row = rows('L', count)[3_300]!
    await database.transaction('rw', blockTables(database), async () =>
      putRows(database, 'L', [{ ...row, company: 'Acme 9' }]),
    )
    const started = new LocalListQueries(database)
    await started.view('L', { filters: { country: ['Spain'] } })
    // The filter by company first, the quiet moment's read of that column beside it.
    const viewed = started.view('L', { filters: { company: ['Acme 9'] } })
    const warmed = started.whenQuiet()
    expect(await viewed).toBe(1)
    await warmed
    expect((await started.rows('L', 0, 5)).map((one) => one.index)).toEqual([3_300])
    expect(await started.view('L', { filters: { company: ['Acme 9'] } })).toBe(1)
    started.dispose()
  })

  it('leaves a stored record that holds more blocks than the list, or lacks a facet, and reads the blocks', async () => {
    const database = await big()
    const blocks = Math.ceil(count / 1_000)
    const everyone = (value: string) => ({ values: [value], codes: new Uint8Array(count + 1_000) })
    const wrong = {
      listId: 'L',
      part: 'narrow' as const,
      size: count + 1_000,
      columns: {
        status: everyone('found'),
        emailStatus: everyone('undeliverable'),
        seniority: everyone('owner'),
        country: everyone('Peru'),
        hasPhone: { values: [1], codes: new Uint8Array(count + 1_000) },
      },
    }
    // Every revision matches, but one block more than the list has.
    await database.listColumns.put({ ...wrong, revs: Array.from({ length: blocks + 1 }, () => 1) })
    const spain = expected('L', (row) => row.country === 'Spain')
    const longer = new LocalListQueries(database)
    expect(await longer.view('L', { filters: { country: ['Peru'] } })).toBe(0)
    expect(await longer.view('L', { filters: { country: ['Spain'] } })).toBe(spain.length)
    longer.dispose()
    // The right blocks, but a facet missing.
    const { hasPhone: _hasPhone, ...lacking } = wrong.columns
    await database.listColumns.put({
      ...wrong,
      columns: lacking,
      revs: Array.from({ length: blocks }, () => 1),
    })
    const partial = new LocalListQueries(database)
    expect(await partial.view('L', { filters: { country: ['Peru'] } })).toBe(0)
    expect(await partial.view('L', { filters: { country: ['Spain'] } })).toBe(spain.length)
    partial.dispose()
  })

  it('goes with its list: a list deleted keeps none, and one written anew under its id is read from its blocks', async () => {
    const database = await big()
    const queries = new LocalListQueries(database)
    await queries.warm('L')
    // The list is deleted before the worker stores what it read: nothing is stored.
    await database.transaction('rw', blockTables(database), async () => deleteBlocks(database, 'L'))
    expect(await queries.saveColumns()).toBe(false)
    expect(await database.listColumns.count()).toBe(0)

    await database.transaction('rw', blockTables(database), async () =>
      putRows(database, 'L', rows('L', count)),
    )
    queries.dispose()
    const again = new LocalListQueries(database)
    await again.warm('L')
    expect(await again.saveColumns()).toBe(true)
    again.dispose()
    await database.transaction('rw', blockTables(database), async () => deleteBlocks(database, 'L'))
    expect(await database.listColumns.count()).toBe(0)
    // The same id, the same revisions, other rows: every one of them is counted from its blocks.
    const other = rows('L', count).map((row) => ({
      ...row,
      emailStatus: 'catch_all',
      status: 'found' as const,
    }))
    await database.transaction('rw', blockTables(database), async () => putRows(database, 'L', other))
    const started = new LocalListQueries(database)
    expect(await started.view('L', { filters: { emailStatus: ['catch_all'] } })).toBe(count)
    started.dispose()
  })

  it("reads the company's column and stores the columns once the user has stopped filtering and scrolling", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const database = await big()
      const counter = countingReads(database)
      const queries = new LocalListQueries(database)
      await queries.view('L', { filters: { country: ['Spain'] } })
      await queries.warm('L')
      await vi.advanceTimersByTimeAsync(quietAfterMs - 100)
      // Another filter starts the wait again.
      await queries.view('L', { filters: { country: ['France'] } })
      await vi.advanceTimersByTimeAsync(quietAfterMs - 100)
      // So does a read of rows (a scroll): the worker is not held while the grid waits on it.
      await queries.rows('L', 5_000, 50)
      await vi.advanceTimersByTimeAsync(quietAfterMs - 100)
      expect(await database.listColumns.count()).toBe(0)
      expect(counter.companies).toBe(0)
      await vi.advanceTimersByTimeAsync(200)
      await vi.waitFor(async () => expect(await database.listColumns.count()).toBe(2))
      expect(counter.companies).toBe(21)
      // A filter by company now reads nothing.
      expect(await queries.view('L', { filters: { company: ['Acme 2'] } })).toBe(
        expected('L', (row) => row.company === 'Acme 2').length,
      )
      expect(counter).toEqual({ facets: 21, companies: 21 })
      queries.dispose()
    } finally {
      vi.useRealTimers()
    }
  })
  it('answers from the blocks when storing the columns fails (a full disk), and stores nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const database = await big()
      const full = vi
        .spyOn(database.listColumns, 'bulkPut')
        .mockRejectedValue(new DOMException('The disk is full.', 'QuotaExceededError'))
      const queries = new LocalListQueries(database)
      const spain = expected('L', (row) => row.country === 'Spain')
      expect(await queries.view('L', { filters: { country: ['Spain'] } })).toBe(spain.length)
      await queries.warm('L')
      await vi.advanceTimersByTimeAsync(quietAfterMs + 100)
      await vi.waitFor(() => expect(full).toHaveBeenCalled())
      // The failed write is dropped, not thrown at anyone; the worker answers as before.
      expect(await database.listColumns.count()).toBe(0)
      const acme2 = expected('L', (row) => row.company === 'Acme 2')
      expect(await queries.view('L', { filters: { company: ['Acme 2'] } })).toBe(acme2.length)
      expect((await queries.rows('L', 0, 10)).map((row) => row.index)).toEqual(acme2.slice(0, 10))
      queries.dispose()
      // A new instance, as after a start, reads the blocks' own records.
      full.mockRestore()
      const counter = countingReads(database)
      const started = new LocalListQueries(database)
      expect(await started.view('L', { filters: { country: ['Spain'] } })).toBe(spain.length)
      expect(counter.facets).toBe(21)
      started.dispose()
    } finally {
      vi.useRealTimers()
    }
  })
})
