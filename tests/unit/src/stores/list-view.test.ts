import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { blockTables, putRows } from '@/db/blocks'
import * as lists from '@/db/lists'
import { listQueries } from '@/db/query-worker'
import { applyTally, countTables, FacetTally } from '@/db/facet-tally'
import { db } from '@/db/schema'
import type { RowRecord } from '@/db/records'
import { useListViewStore } from '@/stores/list-view'

const statuses = ['deliverable', 'catch_all', 'undeliverable']
let listId = ''

/** 3,000 rows with results: every third deliverable. */
beforeEach(async () => {
  setActivePinia(createPinia())
  const list = await lists.createList({
    name: 'View',
    source: { fileName: 'v.csv', size: 1, encoding: 'utf-8', delimiter: ',', hasHeader: true },
    columns: ['First', 'Last', 'Domain'],
    mapping: { first_name: 0, last_name: 1, company_domain: 2 },
  })
  listId = list.id
  const rows = Array.from({ length: 3_000 }, (_, index): RowRecord => ({
    listId,
    index,
    values: [`F${index}`, `L${index}`, 'acme.com'],
    issues: [],
    skip: false,
    status: 'found',
    emailStatus: statuses[index % 3]!,
  }))
  const tally = new FacetTally()
  for (const row of rows) tally.add(listId, row, 1)
  await db.transaction('rw', [...blockTables(db), ...countTables(db)], async () => {
    await putRows(db, listId, rows)
    await applyTally(db, tally)
  })
  await lists.finishImport(listId, rows.length)
})

afterEach(() => {
  useListViewStore().close()
  vi.restoreAllMocks()
})

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

describe('the list view store', () => {
  it('filters and sorts through the list queries, and reopens on the whole list in import order', async () => {
    const store = useListViewStore()
    store.open(listId)
    await vi.waitFor(() => expect(store.matching).toBe(3_000))
    expect((await store.fetchRows(0, 3)).map((row) => row.index)).toEqual([0, 1, 2])

    store.setFilter('emailStatus', ['deliverable'])
    await vi.waitFor(() => expect(store.matching).toBe(1_000))
    expect((await store.fetchRows(0, 3)).map((row) => row.index)).toEqual([0, 3, 6])
    store.setSort({ key: 'index', direction: 'desc' })
    await vi.waitFor(async () =>
      expect((await store.fetchRows(0, 2)).map((row) => row.index)).toEqual([2_997, 2_994]),
    )

    // A result changes a row: the view follows without being asked.
    const row = (await store.fetchRows(0, 1))[0]!
    await db.transaction('rw', blockTables(db), async () =>
      putRows(db, listId, [{ ...row, emailStatus: 'catch_all' }]),
    )
    await vi.waitFor(() => expect(store.matching).toBe(999))

    store.close()
    store.open(listId)
    expect((await store.fetchRows(0, 3)).map((row) => row.index)).toEqual([0, 1, 2])
    await vi.waitFor(() => expect(store.matching).toBe(3_000))
  })

  it('shows a list whose record the page has at once, and reads its first page while the page renders, current after a write', async () => {
    const store = useListViewStore()
    const record = (await db.lists.get(listId))!
    const rows = vi.spyOn(listQueries(), 'rows')
    store.open(listId, record)
    // Before any read of the database: the record, the whole list's size, and the first page asked.
    expect(store.list).toEqual(record)
    expect(store.matching).toBe(3_000)
    expect(rows.mock.calls).toEqual([[listId, 0, 100]])
    expect(store.firstRowsIn).toBe(false)
    const opened = store.version
    await vi.waitFor(() => expect(store.firstRowsIn).toBe(true))
    // Once the blocks' revisions are known the page is asked again (the version moves, the grid
    // reads again): a block written between the two reads is not missed. The grid's read gets the
    // page asked last without asking again.
    await vi.waitFor(() => expect(rows).toHaveBeenCalledTimes(2))
    await vi.waitFor(() => expect(store.version).toBeGreaterThan(opened))
    expect((await store.fetchRows(0, 100)).map((row) => row.index).slice(0, 3)).toEqual([0, 1, 2])
    expect(rows).toHaveBeenCalledTimes(2)
    // Taken once: the next read asks the worker.
    await store.fetchRows(0, 100)
    expect(rows).toHaveBeenCalledTimes(3)

    // Opened again and a block written before the grid reads: the pages read before are dropped,
    // and the grid's read asks again and sees the write.
    store.close()
    const before = rows.mock.calls.length
    store.open(listId, record)
    await vi.waitFor(() => expect(rows.mock.calls.length).toBe(before + 2))
    // The opening's own recounts done, so that the next version is the write's.
    await new Promise((done) => setTimeout(done, 100))
    const version = store.version
    const changed: RowRecord = {
      listId,
      index: 0,
      values: ['F0', 'L0', 'acme.com'],
      issues: [],
      skip: false,
      status: 'found',
      emailStatus: 'undeliverable',
    }
    await db.transaction('rw', blockTables(db), async () => putRows(db, listId, [changed]))
    await vi.waitFor(() => expect(store.version).toBeGreaterThan(version))
    const page = await store.fetchRows(0, 100)
    expect(rows.mock.calls.length).toBe(before + 3)
    expect(page[0]!.emailStatus).toBe('undeliverable')
  })

  it('reads the facet columns a moment after the first rows, at once when a filter is reached, never for a list left', async () => {
    const warm = vi.spyOn(listQueries(), 'warm')
    // Left before the moment came: nothing is read for it.
    let store = useListViewStore()
    store.open(listId)
    await store.fetchRows(0, 3)
    store.close()
    await pause(1_000)
    expect(warm).not.toHaveBeenCalled()

    // A hand on the filters: read at once, and once.
    store.open(listId)
    await store.fetchRows(0, 3)
    store.warm()
    expect(warm).toHaveBeenCalledTimes(1)
    await pause(1_000)
    expect(warm).toHaveBeenCalledTimes(1)
    // Opened again, the worker still holds its columns: not read again.
    store.close()
    store.open(listId)
    await store.fetchRows(0, 3)
    await pause(1_000)
    expect(warm).toHaveBeenCalledTimes(1)
    store.close()

    // A fresh window: not while the list opens, and a filter chosen meanwhile is answered all
    // the same; then, a moment later, the columns are read.
    setActivePinia(createPinia())
    warm.mockClear()
    store = useListViewStore()
    store.open(listId)
    await store.fetchRows(0, 3)
    expect(warm).not.toHaveBeenCalled()
    store.setFilter('emailStatus', ['catch_all'])
    await vi.waitFor(() => expect(store.matching).toBe(1_000))
    await vi.waitFor(() => expect(warm).toHaveBeenCalledWith(listId), { timeout: 3_000 })
    await store.fetchRows(0, 3)
    expect(warm).toHaveBeenCalledTimes(1)
  })

  it('does not read the facet columns while the grid keeps asking for rows (a scroll), but a moment after', async () => {
    const warm = vi.spyOn(listQueries(), 'warm')
    const store = useListViewStore()
    store.open(listId)
    await store.fetchRows(0, 3)
    // Rows asked every 200 ms for two seconds, more than three times the moment's length.
    for (let step = 1; step <= 10; step++) {
      await pause(200)
      await store.fetchRows(step * 100, 100)
      expect(warm).not.toHaveBeenCalled()
    }
    await vi.waitFor(() => expect(warm).toHaveBeenCalledWith(listId), { timeout: 3_000 })
    expect(warm).toHaveBeenCalledTimes(1)
    store.close()
  })
})
