// @vitest-environment node
// The backend runs here too, and it needs Node's own AbortSignal, which a DOM environment replaces.
import 'fake-indexeddb/auto'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import Papa from 'papaparse'
import { JobLedger } from '../../../../electron/engine/jobs/ledger'
import { jobRecord } from '../../electron/engine/jobs/job-record'
import type { ResultRow } from '@shared/contract'
import { exportList } from '@/db/export-list'
import { appendRows, createList, finishImport } from '@/db/lists'
import { facetCounts } from '@/db/rows'
import { db, rowKey } from '@/db/schema'
import type { ListRecord } from '@/db/records'
import { useJobsStore } from '@/stores/jobs'
import { useListsStore, type RunOptions } from '@/stores/lists'
import { notify } from '@/ui/notify'
import { allResults, ask, storeTestBed, unacknowledged } from '../support/window'
import { allRows } from '../support/rows'

/**
 * The renderer's money path, in process: the lists and jobs stores over the real backend and a
 * time-scaled sandbox, Dexie on fake-indexeddb. A run's results are fetched, written to Dexie and
 * only then acknowledged; a window that dies between the two loses nothing and stores nothing twice.
 */

const t = storeTestBed()

const options: RunOptions = { email: true, phone: false, catchAll: false }

/** 60 rows, 50 people: rows 50–59 repeat rows 0–9. */
async function importList(name: string): Promise<ListRecord> {
  const list = await createList({
    name,
    source: { fileName: `${name}.csv`, size: 1, encoding: 'utf-8', delimiter: ',', hasHeader: true },
    columns: ['First', 'Last', 'Domain'],
    mapping: { first_name: 0, last_name: 1, company_domain: 2 },
  })
  const person = (i: number) => [`${name}First${i}`, `Last${i}`, `${name.toLowerCase()}${i % 9}.example.com`]
  await appendRows(
    list.id,
    0,
    Array.from({ length: 60 }, (_, index) => person(index % 50)),
  )
  await finishImport(list.id, 60)
  return (await db.lists.get(list.id))!
}

async function startRun(list: ListRecord): Promise<string> {
  const lists = useListsStore()
  const prepared = await lists.prepareRun(list, options)
  if ('code' in prepared) throw new Error(prepared.message)
  expect(prepared.estimate.toSend).toBe(50)
  const started = await lists.startRun(list, prepared, options, undefined)
  if (!started || 'code' in started) throw new Error(`the run did not start: ${JSON.stringify(started)}`)
  return started.id
}

/** Every result the backend holds for the job, by row key: what was paid for. */
async function ledger(jobId: string): Promise<Map<string, ResultRow>> {
  return new Map((await allResults(t.bed, jobId)).map((row) => [row.key, row]))
}

/** The list as the user receives it: its CSV export, parsed. */
async function exported(list: ListRecord): Promise<Record<string, string>[]> {
  const file = await exportList((await db.lists.get(list.id))!, { format: 'csv' })
  const text = (await file.blob.text()).replace(/^\uFEFF/, '')
  return Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data
}

/** Each row holds its own answer (a repeated person their first row's) and the export shows it. */
async function expectDelivered(list: ListRecord, jobId: string): Promise<void> {
  const paid = await ledger(jobId)
  const rows = await allRows(db, list.id)
  expect(rows).toHaveLength(60)
  const file = await exported(list)
  expect(file).toHaveLength(60)
  for (const row of rows) {
    const answer = paid.get(rowKey(list.id, row.index % 50))!
    expect(answer.status === 'found' || answer.status === 'not_found').toBe(true)
    expect(row.status).toBe(answer.status)
    const email = String(answer.data?.['contact_email_address'] ?? '')
    expect(String(row.result?.['contact_email_address'] ?? '')).toBe(email)
    expect(file[row.index]!['Email']).toBe(email)
  }
  expect(rows.filter((row) => row.status === 'found').length).toBeGreaterThan(0)
  // Kept counts say what the rows say: nothing counted twice.
  const counts = await facetCounts(list.id, db)
  const byStatus = Object.fromEntries(counts.status.map(({ value, count }) => [value, count]))
  for (const status of ['found', 'not_found'])
    expect(byStatus[status] ?? 0).toBe(rows.filter((row) => row.status === status).length)
  expect(counts.status.reduce((sum, { count }) => sum + count, 0)).toBe(60)
}

describe('the jobs store', () => {
  it('stores every result of a run in Dexie, then acknowledges it, and the list shows what was spent', async () => {
    t.reopen()
    const list = await importList('Plain')
    const done = t.bed.next('jobs/state', (event) => event.state === 'done')
    const jobId = await startRun(list)
    await done
    await useJobsStore().drain(jobId)
    await expectDelivered(list, jobId)
    expect(await unacknowledged(t.bed, jobId)).toBe(0)
    const view = await ask(t.bed, 'jobs/get', { jobId })
    const stored = (await db.lists.get(list.id))!
    expect(stored).toMatchObject({ state: 'done', jobIds: [jobId] })
    expect(stored.creditsSpent).toBe(view.creditsConsumed)
    expect(view.creditsConsumed).toBeGreaterThan(0)
  })

  it('loses nothing and stores nothing twice when the window dies between storing and acknowledging', async () => {
    let crashed!: () => void
    const crash = new Promise<void>((resolve) => (crashed = resolve))
    let acks = 0
    t.reopen((channel) => {
      if (channel !== 'jobs/ack') return undefined
      acks += 1
      // The results are in Dexie; the window dies before the acknowledgement leaves it.
      t.bridge.close()
      crashed()
      return new Promise(() => undefined)
    })
    const list = await importList('Crash')
    const done = t.bed.next('jobs/state', (event) => event.state === 'done')
    const jobId = await startRun(list)
    await crash
    await done
    expect(acks).toBe(1)

    // What the dead window stored: part or all of the results, every one of them still unacknowledged.
    const before = await allRows(db, list.id)
    const stored = before.filter((row) => row.status !== 'pending').length
    expect(stored).toBeGreaterThan(0)
    expect(await unacknowledged(t.bed, jobId)).toBeGreaterThanOrEqual(stored)

    // The next start picks them up again: applied once more (the same rows), then acknowledged.
    t.reopen()
    await useJobsStore().resumeIngestion()
    await expectDelivered(list, jobId)
    expect(await unacknowledged(t.bed, jobId)).toBe(0)
    const after = await allRows(db, list.id)
    for (const row of before.filter((one) => one.status !== 'pending')) expect(after[row.index]).toEqual(row)
    const view = await ask(t.bed, 'jobs/get', { jobId })
    expect((await db.lists.get(list.id))!.creditsSpent).toBe(view.creditsConsumed)
  })
})

describe('the jobs store, when a job record was torn', () => {
  afterEach(() => vi.restoreAllMocks())

  /**
   * A run of a list the window knows, whose record on disk was cut off mid-write: the sandbox ledger
   * the backend reads at start, written by the real ledger and then truncated.
   */
  async function tornRun(jobId: string, label: string): Promise<string> {
    const folder = join(t.bed.home, 'state', 'sandbox')
    new JobLedger(folder).create(jobRecord(jobId, { state: 'running', creditsConsumed: 12, label }), [{}])
    const file = join(folder, 'jobs', jobId, 'job.json')
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 40))
    await db.jobs.put({
      jobId,
      kind: 'enrichment',
      listId: `list-of-${jobId}`,
      label,
      state: 'running',
      counts: { rows: 2, done: 0, found: 0, notFound: 0 },
      creditsConsumed: 12,
      createdAt: Date.now(),
      updatedAt: Date.now(),
    })
    return join(folder, 'jobs', jobId)
  }

  const movedTo = (folder: string) => {
    const aside = readdirSync(folder).filter((name) => name.startsWith('job.json.unreadable-'))
    expect(aside).toHaveLength(1)
    return join(folder, aside[0]!)
  }

  const noticeOf = (label: string, path: string) => [
    'A job could not be read',
    `The record of the job “${label}” is damaged, so that job will not resume. The record was moved to the file ` +
      'below; it says what you paid for the job, and the job’s results are in the same folder.',
    path,
  ]

  it('says once which record was set aside, where it went and what that means', async () => {
    const lasting = vi.spyOn(notify, 'lasting').mockImplementation(() => undefined)
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const folder = await tornRun('job-torn-start', 'Prospects')
    // As the hosts do: the ledger is read at start, before any window listens.
    await t.bed.backend.start()
    const path = movedTo(folder)
    expect(existsSync(join(folder, 'payloads.jsonl'))).toBe(true)

    t.reopen()
    await useJobsStore().tellSetAside()
    expect(lasting.mock.calls).toEqual([noticeOf('Prospects', path)])
    // Its run no longer shows as going on.
    expect((await db.jobs.get('job-torn-start'))!.state).toBe('failed')

    // Asked again, or by a window opened after a reload: said once per start.
    await useJobsStore().tellSetAside()
    t.reopen()
    await useJobsStore().tellSetAside()
    expect(lasting).toHaveBeenCalledTimes(1)
  })

  it('tells a window already open when a ledger read later sets a record aside', async () => {
    const lasting = vi.spyOn(notify, 'lasting').mockImplementation(() => undefined)
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const folder = await tornRun('job-torn-later', 'Later')
    t.reopen()
    useJobsStore()
    await t.bed.backend.start()
    await vi.waitFor(() => expect(lasting).toHaveBeenCalledTimes(1))
    expect(lasting.mock.calls).toEqual([noticeOf('Later', movedTo(folder))])
  })
})
