import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { isAlive, removeStrayTempFiles, writeFileAtomic } from './atomic-file'
import { JobWriter } from './job-writer'
import type { JobRecord, ResultBatch, ResultPage } from '../../domain/jobs'

export type { ResultPage }

/** Lock files this process holds; a lock with this pid that is not here was left by an earlier process. */
const heldLocks = new Set<string>()

/** Where each planned payload starts and ends in `payloads.jsonl`. */
interface PayloadIndex {
  starts: number[]
  ends: number[]
}

/**
 * The durable record of every job, under `<stateDir>/jobs/<jobId>/`:
 * - `job.json`: the job and the state of each chunk, rewritten atomically on every transition;
 * - `payloads.jsonl`: what each planned chunk sends, one line per chunk, written once when the job is
 *   planned; `payload-<n>.json`: a chunk added later (a further company search page), or every chunk
 *   of a ledger written before `payloads.jsonl` existed;
 * - `results-<seq>.json`: each batch of results, written before it is announced.
 * The job record names the last result batch, so a batch file only counts once the record says so.
 * The process running a job writes through its `JobWriter` (asynchronous, ordered); the synchronous
 * writes here are for jobs no run holds.
 */
export class JobLedger {
  readonly stateDir: string
  private readonly payloadIndexes = new Map<string, PayloadIndex | null>()

  constructor(stateDir: string) {
    this.stateDir = stateDir
    mkdirSync(this.jobsDir, { recursive: true, mode: 0o700 })
  }

  private get jobsDir(): string {
    return join(this.stateDir, 'jobs')
  }

  private jobDir(jobId: string): string {
    if (!/^[\w-]+$/.test(jobId)) throw new Error(`Invalid job id: ${jobId}`)
    return join(this.jobsDir, jobId)
  }

  has(jobId: string): boolean {
    return existsSync(join(this.jobDir(jobId), 'job.json'))
  }

  /**
   * Creates the job with its chunk payloads (one file, one flush) and, if given, its first result
   * batch; the record is written last, so a half-created job is invisible. Returns the record saved.
   */
  create(record: JobRecord, payloads: unknown[], firstBatch?: Omit<ResultBatch, 'seq' | 'at'>): JobRecord {
    const dir = this.jobDir(record.id)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    this.payloadIndexes.delete(record.id)
    writeFileAtomic(
      join(dir, 'payloads.jsonl'),
      payloads.map((payload) => JSON.stringify(payload) + '\n').join(''),
    )
    if (!firstBatch) {
      this.save(record)
      return record
    }
    return this.appendResults(record, firstBatch)
  }

  save(record: JobRecord): void {
    writeFileAtomic(join(this.jobDir(record.id), 'job.json'), JSON.stringify(record))
  }

  load(jobId: string): JobRecord | undefined {
    const dir = this.jobDir(jobId)
    const file = join(dir, 'job.json')
    if (!existsSync(file)) return undefined
    removeStrayTempFiles(dir)
    return JSON.parse(readFileSync(file, 'utf8')) as JobRecord
  }

  list(): JobRecord[] {
    return readdirSync(this.jobsDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => {
        const record = this.load(entry.name)
        return record ? [record] : []
      })
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
  }

  /** The writer of a job for the run that holds its lock; `record` returns the run's record as it is now. */
  writer(jobId: string, record: () => JobRecord): JobWriter {
    return new JobWriter(this.jobDir(jobId), record)
  }

  readPayload<T>(jobId: string, index: number): T {
    const planned = this.payloadIndex(jobId)
    if (planned && index < planned.starts.length) {
      const start = planned.starts[index]!
      const bytes = Buffer.alloc(planned.ends[index]! - start)
      const fd = openSync(join(this.jobDir(jobId), 'payloads.jsonl'), 'r')
      try {
        readSync(fd, bytes, 0, bytes.length, start)
      } finally {
        closeSync(fd)
      }
      return JSON.parse(bytes.toString('utf8')) as T
    }
    return JSON.parse(readFileSync(join(this.jobDir(jobId), `payload-${index}.json`), 'utf8')) as T
  }

  /**
   * Line offsets of `payloads.jsonl`, read once: the file never changes after creation, and reading
   * a chunk's payload then costs one read of its own bytes. Null for a ledger of `payload-<n>.json` files.
   */
  private payloadIndex(jobId: string): PayloadIndex | null {
    const known = this.payloadIndexes.get(jobId)
    if (known !== undefined) return known
    const file = join(this.jobDir(jobId), 'payloads.jsonl')
    let index: PayloadIndex | null = null
    if (existsSync(file)) {
      const bytes = readFileSync(file)
      index = { starts: [], ends: [] }
      let start = 0
      // JSON.stringify escapes newlines inside strings, so every newline byte ends a payload.
      for (let end = bytes.indexOf(10); end >= 0; end = bytes.indexOf(10, start)) {
        index.starts.push(start)
        index.ends.push(end)
        start = end + 1
      }
    }
    this.payloadIndexes.set(jobId, index)
    return index
  }

  /**
   * Stores a batch and advances the record's `resultSeq` in that order; the caller saves nothing else
   * for this batch. Returns the updated record.
   */
  appendResults(record: JobRecord, batch: Omit<ResultBatch, 'seq' | 'at'>): JobRecord {
    const seq = record.resultSeq + 1
    const stored: ResultBatch = { ...batch, seq, at: Date.now() }
    writeFileAtomic(join(this.jobDir(record.id), `results-${seq}.json`), JSON.stringify(stored))
    const next = { ...record, resultSeq: seq, updatedAt: new Date().toISOString() }
    this.save(next)
    return next
  }

  /** Batches after `after` (default: after the last acknowledged one), at most `limit` of them. */
  results(jobId: string, after?: number, limit = Number.POSITIVE_INFINITY): ResultPage {
    const record = this.load(jobId)
    if (!record) throw new Error(`Unknown job: ${jobId}`)
    const start = after ?? record.ackSeq
    const end = Math.min(record.resultSeq, start + limit)
    const batches: ResultBatch[] = []
    for (let seq = start + 1; seq <= end; seq++) {
      batches.push(
        JSON.parse(readFileSync(join(this.jobDir(jobId), `results-${seq}.json`), 'utf8')) as ResultBatch,
      )
    }
    return { batches, cursor: Math.max(start, end), complete: end >= record.resultSeq }
  }

  /** Records that the caller has stored every batch up to `cursor`; never moves backwards. */
  ack(jobId: string, cursor: number): JobRecord {
    const record = this.load(jobId)
    if (!record) throw new Error(`Unknown job: ${jobId}`)
    const next = { ...record, ackSeq: Math.min(record.resultSeq, Math.max(record.ackSeq, cursor)) }
    this.save(next)
    return next
  }

  /**
   * Claims a job for this process so that two processes never submit its chunks side by side.
   * A lock left by a dead process (crash, kill -9) is taken over. Returns the release function, or
   * the pid of the live process that holds the job.
   */
  lock(jobId: string): { ok: true; release: () => void } | { ok: false; pid: number } {
    const file = join(this.jobDir(jobId), 'lock')
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(file, 'wx', 0o600)
        writeSync(fd, String(process.pid))
        closeSync(fd)
        heldLocks.add(file)
        return {
          ok: true,
          release: () => {
            heldLocks.delete(file)
            rmSync(file, { force: true })
          },
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
        const pid = Number.parseInt(readFileSync(file, 'utf8'), 10)
        const heldHere = pid === process.pid && heldLocks.has(file)
        if (heldHere || (pid !== process.pid && isAlive(pid))) return { ok: false, pid }
        rmSync(file, { force: true })
      }
    }
    throw new Error(`Could not lock job ${jobId}`)
  }

  remove(jobId: string): void {
    this.payloadIndexes.delete(jobId)
    rmSync(this.jobDir(jobId), { recursive: true, force: true })
  }
}
