import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JobLedger } from '../../../../../electron/engine/jobs/ledger'
import { jobRecord as record } from './job-record'

describe('JobLedger', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lk-ledger-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('stores jobs, payloads and result batches, and reads them back by cursor', () => {
    const ledger = new JobLedger(dir)
    ledger.create(record('job-a'), [[{ ref: 'r1' }]])
    let job = ledger.load('job-a')!
    job = ledger.appendResults(job, { chunkIndex: null, rows: [{ key: 'r1', status: 'known' }] })
    ledger.appendResults(job, { chunkIndex: 0, rows: [{ key: 'r2', status: 'found', data: { a: 1 } }] })
    const reopened = new JobLedger(dir)
    expect(reopened.readPayload('job-a', 0)).toEqual([{ ref: 'r1' }])
    const first = reopened.results('job-a', 0, 1)
    expect(first.batches.map((b) => b.seq)).toEqual([1])
    expect(first.complete).toBe(false)
    const rest = reopened.results('job-a', first.cursor)
    expect(rest.batches[0]?.rows[0]).toEqual({ key: 'r2', status: 'found', data: { a: 1 } })
    expect(rest.complete).toBe(true)
  })

  it('returns only unacknowledged batches once a cursor is acknowledged, never moving back', () => {
    const ledger = new JobLedger(dir)
    ledger.create(record('job-b'), [])
    let job = ledger.load('job-b')!
    for (let i = 0; i < 3; i++) job = ledger.appendResults(job, { chunkIndex: i, rows: [] })
    ledger.ack('job-b', 2)
    ledger.ack('job-b', 1)
    expect(ledger.results('job-b').batches.map((b) => b.seq)).toEqual([3])
  })

  it('survives a torn write: the previous record stays readable and the stray temp file is removed', () => {
    const ledger = new JobLedger(dir)
    ledger.create(record('job-c'), [])
    const jobDir = join(dir, 'jobs', 'job-c')
    // A crash in the middle of a write leaves a partial temporary file beside the record.
    writeFileSync(join(jobDir, `job.json.tmp-99999-1`), '{"id":"job-c","state":"runn')
    const loaded = new JobLedger(dir).load('job-c')
    expect(loaded?.state).toBe('queued')
    expect(readdirSync(jobDir).filter((name) => name.includes('.tmp-'))).toEqual([])
  })

  it('ignores a result batch file the record does not name yet (crash between the two writes)', () => {
    const ledger = new JobLedger(dir)
    ledger.create(record('job-d'), [])
    writeFileSync(join(dir, 'jobs', 'job-d', 'results-1.json'), '{"seq":1,"chunkIndex":0,"rows":[{"key":"x"')
    expect(ledger.results('job-d').batches).toEqual([])
    const job = ledger.appendResults(ledger.load('job-d')!, {
      chunkIndex: 0,
      rows: [{ key: 'y', status: 'found' }],
    })
    expect(job.resultSeq).toBe(1)
    expect(ledger.results('job-d').batches[0]?.rows).toEqual([{ key: 'y', status: 'found' }])
  })

  it('lists jobs in creation order and refuses ids that could escape the state directory', () => {
    const ledger = new JobLedger(dir)
    ledger.create({ ...record('job-2'), createdAt: '2026-01-02T00:00:00.000Z' }, [])
    ledger.create(record('job-1'), [])
    expect(ledger.list().map((job) => job.id)).toEqual(['job-1', 'job-2'])
    expect(() => ledger.load('../etc')).toThrow(/Invalid job id/)
  })
})
