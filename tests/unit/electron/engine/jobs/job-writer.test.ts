import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JobLedger } from '../../../../../electron/engine/jobs/ledger'
import type { JobRecord } from '../../../../../electron/domain/jobs'
import { jobRecord as record } from './job-record'

describe('JobWriter', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lk-writer-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const onDisk = (ledger: JobLedger, id: string): JobRecord => new JobLedger(ledger.stateDir).load(id)!

  const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

  it('has each save on disk when it resolves, in the order asked', async () => {
    const ledger = new JobLedger(dir)
    const live = ledger.create(record('job-a'), [])
    const writer = ledger.writer('job-a', () => live)
    const seen: number[] = []
    const saves: Promise<void>[] = []
    for (let n = 1; n <= 5; n++) {
      live.requestsSent = n
      saves.push(
        writer.save().then(() => {
          // Whatever was in memory when this save was asked for is on disk now (or something later).
          expect(onDisk(ledger, 'job-a').requestsSent).toBeGreaterThanOrEqual(n)
          seen.push(n)
        }),
      )
      await tick()
    }
    await Promise.all(saves)
    expect(seen).toEqual([1, 2, 3, 4, 5])
    expect(onDisk(ledger, 'job-a').requestsSent).toBe(5)
  })

  it('merges saves asked for before a waiting write starts into that write', async () => {
    const ledger = new JobLedger(dir)
    const live = ledger.create(record('job-b'), [])
    const writer = ledger.writer('job-b', () => live)
    const first = writer.save()
    expect(writer.save()).toBe(first)
    // Once that write has taken its copy of the record, a save needs a write of its own, after it.
    await tick()
    const second = writer.save()
    expect(second).not.toBe(first)
    live.state = 'running'
    expect(writer.save()).toBe(second)
    await Promise.all([first, second])
    expect(onDisk(ledger, 'job-b').state).toBe('running')
  })

  it('writes result batches in order and lets the record name each only once it is on disk', async () => {
    const ledger = new JobLedger(dir)
    const live = ledger.create(record('job-c'), [[{ ref: 'r1' }]], {
      chunkIndex: null,
      rows: [{ key: 'k0', status: 'known' }],
    })
    const writer = ledger.writer('job-c', () => live)
    const applied: number[] = []
    const appends = [1, 2, 3].map((n) =>
      writer.appendResults({ chunkIndex: n, rows: [{ key: `k${n}`, status: 'found' }] }, (seq) => {
        expect(existsSync(join(dir, 'jobs', 'job-c', `results-${seq}.json`))).toBe(true)
        // The record on disk does not name this batch yet: it is saved after `apply`.
        expect(onDisk(ledger, 'job-c').resultSeq).toBeLessThan(seq)
        applied.push(seq)
        live.resultSeq = seq
      }),
    )
    expect(await Promise.all(appends)).toEqual([2, 3, 4])
    expect(applied).toEqual([2, 3, 4])
    const page = new JobLedger(dir).results('job-c', 0)
    expect(page.batches.map((batch) => batch.rows[0]?.key)).toEqual(['k0', 'k1', 'k2', 'k3'])
  })

  it('fails every later batch once one could not be written, so the record never skips one', async () => {
    const ledger = new JobLedger(dir)
    const live = ledger.create(record('job-d'), [])
    const writer = ledger.writer('job-d', () => live)
    rmSync(join(dir, 'jobs', 'job-d'), { recursive: true })
    const apply = (seq: number) => (live.resultSeq = seq)
    const first = writer.appendResults({ chunkIndex: 0, rows: [] }, apply)
    const second = writer.appendResults({ chunkIndex: 1, rows: [] }, apply)
    await expect(first).rejects.toThrow(/ENOENT/)
    await expect(second).rejects.toThrow(/ENOENT/)
    expect(live.resultSeq).toBe(0)
  })

  it('goes on after a failed record write with the record as it is then', async () => {
    const ledger = new JobLedger(dir)
    const live = ledger.create(record('job-e'), [])
    const writer = ledger.writer('job-e', () => live)
    const jobDir = join(dir, 'jobs', 'job-e')
    const saved = JSON.parse(readFileSync(join(jobDir, 'job.json'), 'utf8')) as JobRecord
    rmSync(jobDir, { recursive: true })
    await expect(writer.save()).rejects.toThrow(/ENOENT/)
    ledger.create(saved, [])
    live.state = 'running'
    await writer.save()
    expect(onDisk(ledger, 'job-e').state).toBe('running')
  })
})

describe('JobLedger payloads', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lk-payloads-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('keeps the planned payloads in one file and a page added later in its own', async () => {
    const ledger = new JobLedger(dir)
    const payloads = [[{ ref: 'a', note: 'line\nbreak' }], [{ ref: 'b' }], { filters: { x: ['é', '"'] } }]
    const live = ledger.create(record('job-f'), payloads)
    await ledger.writer('job-f', () => live).writePayload(3, { offset: 300 })
    const reopened = new JobLedger(dir)
    expect([0, 1, 2, 3].map((index) => reopened.readPayload('job-f', index))).toEqual([
      ...payloads,
      { offset: 300 },
    ])
    expect(existsSync(join(dir, 'jobs', 'job-f', 'payload-0.json'))).toBe(false)
  })
})
