import 'fake-indexeddb/auto'
import { describe, expect, it, vi } from 'vitest'
import { reactive } from 'vue'
import { blockTables, putRows } from '@/db/blocks'
import { exportList } from '@/db/export-list'
import { db, LeadkeeperDb } from '@/db/schema'
import type { ListRecord, RowRecord } from '@/db/records'
import { answerExport } from '@/workers/export-answer'
import { list as fixtureList } from '../support/list-fixtures'
import { exportInWorkers, exportWorkerCount } from '@/workers/export-client'
import type { FromExportWorker, ToExportWorker } from '@/workers/export-protocol'

/** A list of 2,500 rows (three blocks) by the shared fixture, named as its file is. */
const list: ListRecord = { ...fixtureList('L', 2_500), name: 'Fair.csv', columns: ['Name', 'Email'] }

function row(index: number): RowRecord {
  return {
    listId: 'L',
    index,
    values: [`Name ${index}`, `n${index}@x.io`],
    issues: [],
    skip: false,
    status: 'found',
    result: { contact_email_address: `found${index}@y.io` },
    emailStatus: '',
    seniority: '',
    country: index < 1_200 ? 'Spain' : 'France',
    company: '',
    hasPhone: 0,
  }
}

async function seeded(): Promise<LeadkeeperDb> {
  const database = new LeadkeeperDb('t-' + crypto.randomUUID())
  const rows = Array.from({ length: list.rowCount }, (_, index) => row(index))
  await database.transaction('rw', blockTables(database), async () => putRows(database, 'L', rows))
  return database
}

/**
 * A stand-in for the export worker: what is posted to it is cloned as `postMessage` clones it (a
 * Vue proxy would not clone), answered by the worker's own code over the test's database, and its
 * answers come back a turn later, as events. `fail` makes it fail as a worker that crashed does.
 */
class StandInWorker {
  onmessage: ((event: { data: FromExportWorker }) => void) | null = null
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null
  onmessageerror: (() => void) | null = null
  terminated = false
  received: ToExportWorker | null = null

  constructor(
    private readonly database: LeadkeeperDb,
    private readonly fail?: 'crash' | 'answer',
  ) {}

  postMessage(message: ToExportWorker): void {
    this.received = structuredClone(message)
    if (this.fail === 'crash') {
      setTimeout(() => this.onerror?.({ message: 'Out of memory', preventDefault: () => undefined }))
      return
    }
    if (this.fail === 'answer') {
      setTimeout(() => this.onmessage?.({ data: { type: 'failed', message: 'The disk is gone' } }))
      return
    }
    void answerExport(
      this.received,
      (answer) => setTimeout(() => !this.terminated && this.onmessage?.({ data: answer })),
      this.database,
    )
  }

  terminate(): void {
    this.terminated = true
  }
}

/** The blocks a stand-in was asked to write, for a list's export. */
const rangeOf = (worker: StandInWorker) =>
  worker.received && 'range' in worker.received ? worker.received.range : undefined

function standIns(database: LeadkeeperDb, fail?: (at: number) => 'crash' | 'answer' | undefined) {
  const made: StandInWorker[] = []
  const start = () => {
    const worker = new StandInWorker(database, fail?.(made.length))
    made.push(worker)
    return worker as unknown as Worker
  }
  return { made, start }
}

describe('exportInWorkers', () => {
  it('has two workers, when asked for, write the halves of a CSV file, joined to the file written whole, then ends them', async () => {
    const database = await seeded()
    const { made, start } = standIns(database)
    const progress: number[] = []
    const file = await exportInWorkers(
      reactive({ ...list }),
      { format: 'csv', onProgress: (rows) => progress.push(rows) },
      start,
      2,
    )
    const whole = await exportList(list, { format: 'csv', database })
    expect(await file.blob.text()).toBe(await whole.blob.text())
    expect(file.rows).toBe(2_500)
    expect(file.fileName).toBe('Fair (enriched).csv')
    expect(made.map((worker) => rangeOf(worker))).toEqual([
      { from: 0, to: 1 },
      { from: 1, to: Infinity },
    ])
    expect(made.every((worker) => worker.terminated)).toBe(true)
    expect(progress.at(-1)).toBe(2_500)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
  })

  it('exports the filter a reactive view holds, as JSON, and an Excel file by one worker', async () => {
    const database = await seeded()
    const json = standIns(database)
    const filters = reactive({ country: ['France'] })
    const file = await exportInWorkers(list, { format: 'json', filters }, json.start, 2)
    // The first half's worker finds no row of France: its empty part adds nothing, not even a comma.
    expect(json.made).toHaveLength(2)
    const records = JSON.parse(await file.blob.text()) as Record<string, string>[]
    expect(records).toHaveLength(1_300)
    expect(records[0]!['Name']).toBe('Name 1200')
    expect(records.at(-1)!['Name']).toBe('Name 2499')
    const xlsx = standIns(database)
    const sheet = await exportInWorkers(list, { format: 'xlsx' }, xlsx.start, 2)
    expect(xlsx.made).toHaveLength(1)
    expect(rangeOf(xlsx.made[0]!)).toBeUndefined()
    expect(sheet.rows).toBe(2_500)
    expect(sheet.fileName).toBe('Fair (enriched).xlsx')
    expect(sheet.blob.size).toBeGreaterThan(10_000)
  })

  it('has two workers write a file on a computer of two cores or more, one on a single core', () => {
    expect(exportWorkerCount(1)).toBe(1)
    expect(exportWorkerCount(0)).toBe(1)
    expect(exportWorkerCount(2)).toBe(2)
    expect(exportWorkerCount(16)).toBe(2)
  })

  it.each([
    [1, 1],
    [4, 2],
  ])('writes with %i core(s) by %i worker(s) when none is asked for', async (cores, workers) => {
    vi.stubGlobal('navigator', { hardwareConcurrency: cores })
    try {
      const database = await seeded()
      const { made, start } = standIns(database)
      const file = await exportInWorkers(list, { format: 'csv' }, start)
      expect(made).toHaveLength(workers)
      expect(file.rows).toBe(2_500)
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('writes the file in process where no worker can run', async () => {
    vi.stubGlobal('Worker', undefined)
    try {
      const rows = Array.from({ length: list.rowCount }, (_, index) => row(index))
      await db.transaction('rw', blockTables(db), async () => putRows(db, 'L', rows))
      const progress: number[] = []
      const file = await exportInWorkers(list, { format: 'csv', onProgress: (done) => progress.push(done) })
      const whole = await exportList(list, { format: 'csv', database: db })
      expect(file.fileName).toBe('Fair (enriched).csv')
      expect(file.rows).toBe(2_500)
      expect(await file.blob.text()).toBe(await whole.blob.text())
      expect(progress.at(-1)).toBe(2_500)
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it.each(['crash', 'answer'] as const)(
    'fails with what stopped a worker (%s) and ends every worker',
    async (how) => {
      const database = await seeded()
      const { made, start } = standIns(database, (at) => (at === 1 ? how : undefined))
      await expect(exportInWorkers(list, { format: 'csv' }, start, 2)).rejects.toThrow(
        how === 'crash' ? 'Out of memory' : 'The disk is gone',
      )
      expect(made).toHaveLength(2)
      expect(made.every((worker) => worker.terminated)).toBe(true)
    },
  )
})
