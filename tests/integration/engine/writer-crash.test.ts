import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { seededRandom } from '../../../electron/engine/client/clock'
import { JobLedger } from '../../../electron/engine/jobs/ledger'
import { jobRecord } from '../../unit/electron/engine/jobs/job-record'

const child = resolve(import.meta.dirname, 'writer-child.ts')

const record = (id: string) =>
  jobRecord(id, {
    state: 'running',
    chunks: [],
    counts: { rows: 0, done: 0, found: 0, notFound: 0 },
    estimateMax: 0,
  })

/** Runs the writer child until it has reported `reports` saves plus `extraMs`, then kills it (or until it dies). */
async function runChild(
  stateDir: string,
  jobId: string,
  mode: 'saves' | 'batch',
  reports = 0,
  extraMs = 0,
): Promise<{ last?: { n: number; seq: number }; signal: NodeJS.Signals | null }> {
  const process_ = spawn(process.execPath, ['--import', 'tsx', child, stateDir, jobId, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let last: { n: number; seq: number } | undefined
  let seen = 0
  const exited = new Promise<NodeJS.Signals | null>((done) =>
    process_.once('exit', (_code, signal) => done(signal)),
  )
  createInterface({ input: process_.stdout }).on('line', (line) => {
    const [, n, seq] = line.split(' ')
    last = { n: Number(n), seq: Number(seq) }
    if (++seen === reports) setTimeout(() => process_.kill('SIGKILL'), extraMs)
  })
  const signal = await exited
  return { last, signal }
}

describe('a process killed while it writes a job', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lk-writer-crash-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('leaves every save it saw finish, a record that names only batches on disk, and no stray files', async () => {
    const random = seededRandom(20261121)
    for (let round = 0; round < 4; round++) {
      const jobId = `job-${round}`
      new JobLedger(dir).create(record(jobId), [])
      const { last, signal } = await runChild(
        dir,
        jobId,
        'saves',
        5 + Math.floor(random() * 20),
        random() * 30,
      )
      expect(signal).toBe('SIGKILL')
      expect(last).toBeDefined()

      const ledger = new JobLedger(dir)
      const loaded = ledger.load(jobId)!
      expect(loaded.requestsSent).toBeGreaterThanOrEqual(last!.n)
      expect(loaded.resultSeq).toBeGreaterThanOrEqual(last!.seq)
      const batches = ledger.results(jobId, 0).batches
      expect(batches.map((batch) => batch.seq)).toEqual(
        Array.from({ length: loaded.resultSeq }, (_, i) => i + 1),
      )
      expect(readdirSync(join(dir, 'jobs', jobId)).filter((name) => name.includes('.tmp-'))).toEqual([])
    }
  }, 60_000)

  it('ignores a batch written just before the crash that the record did not name yet, and writes over it', async () => {
    new JobLedger(dir).create(record('job-b'), [])
    const { signal } = await runChild(dir, 'job-b', 'batch')
    expect(signal).toBe('SIGKILL')
    expect(existsSync(join(dir, 'jobs', 'job-b', 'results-1.json'))).toBe(true)

    const ledger = new JobLedger(dir)
    const live = ledger.load('job-b')!
    expect(live.resultSeq).toBe(0)
    expect(ledger.results('job-b', 0).batches).toEqual([])
    const seq = await ledger
      .writer('job-b', () => live)
      .appendResults({ chunkIndex: 0, rows: [{ key: 'after', status: 'found' }] }, (written) => {
        live.resultSeq = written
      })
    expect(seq).toBe(1)
    expect(ledger.results('job-b', 0).batches[0]?.rows).toEqual([{ key: 'after', status: 'found' }])
  }, 30_000)
})
