// @vitest-environment node
// The backend runs here too, and it needs Node's own AbortSignal, which a DOM environment replaces.
import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import type { ResultRow } from '@shared/contract'
import { countContacts } from '@/db/library-contacts'
import { matchContactIds } from '@/db/library-query'
import { db } from '@/db/schema'
import { useSearchesStore } from '@/stores/searches'
import { allResults, storeTestBed, unacknowledged } from '../support/window'

/**
 * The searches store over the real backend and a time-scaled sandbox, Dexie on fake-indexeddb: a
 * search's results are stored, filed in the library, then acknowledged; a window that dies between
 * the two stores nothing twice.
 */

const t = storeTestBed({ clear: true })

/** Every row the backend holds for a search, with data: what the search found. */
async function found(jobId: string): Promise<ResultRow[]> {
  return (await allResults(t.bed, jobId)).filter((row) => row.data)
}

const engineers = { filters: { job_title: { include: ['Engineer'] } }, limit: 25, maxLeads: 25 }

/** Each person the backend found is in the search's results and in the library, once. */
async function expectHome(runId: string): Promise<void> {
  const rows = await found(runId)
  expect(rows.length).toBeGreaterThan(0)
  const [stored] = await useSearchesStore().resultsOf([runId])
  expect(stored!.map((record) => record.data['contact_full_name']).sort()).toEqual(
    rows.map((row) => row.data!['contact_full_name']).sort(),
  )
  expect(await countContacts(db)).toBe(rows.length)
  for (const row of rows.slice(0, 5)) {
    const name = String(row.data!['contact_full_name'])
    expect((await matchContactIds({ prefix: name })).length).toBeGreaterThan(0)
  }
  expect(await unacknowledged(t.bed, runId)).toBe(0)
}

describe('the searches store', () => {
  it('brings a lead search home: its results stored, its people in the library, then acknowledged', async () => {
    t.reopen()
    const store = useSearchesStore()
    const done = t.bed.next('jobs/state', (event) => event.state === 'done')
    const { runId, error } = await store.start({ kind: 'lead', search: engineers }, 'Engineers')
    expect(error).toBeNull()
    await done
    await store.drain(runId)
    await store.refreshRun(runId)
    await expectHome(runId)
    const run = store.runs.find((one) => one.id === runId)!
    expect(run).toMatchObject({ state: 'done', kind: 'lead', found: (await found(runId)).length })
    expect(run.request.label).toBe('Engineers')
    // The history a new window reads: the run as it ended.
    expect((await db.searchRuns.get(runId))?.state).toBe('done')
  })

  it('stores nothing twice when the window dies between storing and acknowledging', async () => {
    let crashed!: () => void
    const crash = new Promise<void>((resolve) => (crashed = resolve))
    t.reopen((channel) => {
      if (channel !== 'jobs/ack') return undefined
      t.bridge.close()
      crashed()
      return new Promise(() => undefined)
    })
    const done = t.bed.next('jobs/state', (event) => event.state === 'done')
    const { runId } = await useSearchesStore().start({ kind: 'lead', search: engineers }, 'Engineers')
    await crash
    await done
    expect(await unacknowledged(t.bed, runId)).toBeGreaterThan(0)
    const libraryBefore = await countContacts(db)
    expect(libraryBefore).toBeGreaterThan(0)

    t.reopen()
    await useSearchesStore().load()
    await expectHome(runId)
    expect(await countContacts(db)).toBe(libraryBefore)
  })

  it('says why the service refused a search, and keeps the run as failed', async () => {
    t.reopen()
    const store = useSearchesStore()
    const failed = t.bed.next('jobs/state', (event) => event.state === 'failed')
    const { runId } = await store.start({ kind: 'lead', search: { filters: {} } }, 'Nothing')
    await failed
    await store.refreshRun(runId)
    const run = store.runs.find((one) => one.id === runId)!
    expect(run.state).toBe('failed')
    expect(run.error).toMatch(/Filters parameter/)
    expect(await countContacts(db)).toBe(0)
  })
})
