import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { isAlive, removeStrayTempFiles, writeFileAtomic } from './atomic-file'
import { JobWriter } from './job-writer'
import { batchesOf, resultLimits } from './result-limits'
import type { JobRecord, ResultBatch, ResultPage, SetAsideJob } from '../../domain/jobs'

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

  constructor(
    stateDir: string,
    /** Told of a job record that could not be read and was set aside: in words, and what the window needs. */
    private readonly report: (message: string, setAside: SetAsideJob) => void = (message) =>
      process.stderr.write(`${message}\n`),
  ) {
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

  /**
   * The job's record, or undefined when there is none. A record that cannot be read (torn or edited
   * by hand: the ledger's own writes are atomic) is renamed `job.json.unreadable-<time>` and reported,
   * so one bad job never stops the others from being listed or resumed; its payloads and results stay.
   */
  load(jobId: string): JobRecord | undefined {
    const dir = this.jobDir(jobId)
    const file = join(dir, 'job.json')
    if (!existsSync(file)) return undefined
    removeStrayTempFiles(dir)
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
    const problem = recordProblem(text, jobId)
    if (problem === null) return JSON.parse(text) as JobRecord
    const aside = `${file}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}`
    try {
      renameSync(file, aside)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
    this.report(
      `Job ${jobId} could not be read (${problem}) and was set aside as ${aside}; ` +
        'its payloads and results are kept in the same folder.',
      { jobId, movedTo: aside, reason: problem },
    )
    return undefined
  }

  list(): JobRecord[] {
    return readdirSync(this.jobsDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && /^[\w-]+$/.test(entry.name))
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
    const at = Date.now()
    let seq = record.resultSeq
    for (const rows of batchesOf(batch.rows)) {
      const stored: ResultBatch = { ...batch, rows, seq: ++seq, at }
      writeFileAtomic(join(this.jobDir(record.id), `results-${seq}.json`), JSON.stringify(stored))
    }
    const next = { ...record, resultSeq: seq, updatedAt: new Date().toISOString() }
    this.save(next)
    return next
  }

  /**
   * Batches after `after` (default: after the last acknowledged one), at most `limit` of them, and
   * no more once they hold `resultLimits.pageRows` rows (a page is one message to the window).
   */
  results(jobId: string, after?: number, limit = Number.POSITIVE_INFINITY): ResultPage {
    const record = this.load(jobId)
    if (!record) throw new Error(`Unknown job: ${jobId}`)
    const start = after ?? record.ackSeq
    const last = Math.min(record.resultSeq, start + limit)
    const batches: ResultBatch[] = []
    let rows = 0
    let end = start
    while (end < last && (batches.length === 0 || rows < resultLimits.pageRows)) {
      end++
      const batch = JSON.parse(
        readFileSync(join(this.jobDir(jobId), `results-${end}.json`), 'utf8'),
      ) as ResultBatch
      batches.push(batch)
      rows += batch.rows.length
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
   *
   * Taking over must be atomic: two processes that both find the same dead pid would otherwise both
   * remove the lock and both create one, the later removing the earlier's fresh lock. A taker first
   * claims the takeover of that dead pid exclusively (`lock.takeover-<pid>`), checks again that the
   * lock still names it, and renames its own lock over it in one step; no one else can change a lock
   * naming that pid meanwhile, since that needs the same claim.
   */
  lock(jobId: string): { ok: true; release: () => void } | { ok: false; pid: number } {
    const dir = this.jobDir(jobId)
    const file = join(dir, 'lock')
    const held = { ok: true as const, release: () => releaseLock(file) }
    removeStrayPidFiles(dir)
    for (let attempt = 0; attempt < 3; attempt++) {
      if (createWithPid(file)) {
        heldLocks.add(file)
        return held
      }
      const pid = lockHolder(file)
      if (pid === null) continue
      const heldHere = pid === process.pid && heldLocks.has(file)
      if (heldHere || (pid !== process.pid && isAlive(pid))) return { ok: false, pid }
      const takeover = `${file}.takeover-${pid}`
      if (!claim(takeover)) return { ok: false, pid }
      try {
        if (lockHolder(file) !== pid) continue
        const mine = pidFile(file)
        renameSync(mine, file)
        heldLocks.add(file)
        return held
      } finally {
        rmSync(takeover, { force: true })
      }
    }
    throw new Error(`Could not lock job ${jobId}`)
  }

  remove(jobId: string): void {
    this.payloadIndexes.delete(jobId)
    rmSync(this.jobDir(jobId), { recursive: true, force: true })
  }
}

/** What makes a job record unusable, or null when it reads as one. */
function recordProblem(text: string, jobId: string): string | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return (error as Error).message
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a job record'
  const record = value as Partial<Record<keyof JobRecord, unknown>>
  if (record.id !== jobId) return `it names job ${String(record.id)}`
  if (typeof record.createdAt !== 'string' || typeof record.state !== 'string') return 'fields are missing'
  if (!Array.isArray(record.chunks) || typeof record.resultSeq !== 'number') return 'fields are missing'
  return null
}

/** The pid a lock names; null when the lock went away meanwhile (released by its holder). */
function lockHolder(file: string): number | null {
  try {
    return Number.parseInt(readFileSync(file, 'utf8'), 10)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/**
 * Claims a takeover exclusively. A claim left by a taker that died in its middle is cleared, so a
 * job cannot stay locked by two dead processes.
 */
function claim(path: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (createWithPid(path)) return true
    const taker = lockHolder(path)
    if (taker !== null && isAlive(taker)) return false
    rmSync(path, { force: true })
  }
  return false
}

/** The name of a pid file beside a lock (`pidFile`): the lock's name, then the writer's pid. */
const pidFileName = /^lock(?:\.takeover-\d+)?\.(\d+)-[0-9a-f]{12}$/

/**
 * Removes the pid files a process left when it died between writing one and linking or renaming it
 * (`pidFile`): each names its writer, and a live writer's is left alone, as it is about to be used.
 */
function removeStrayPidFiles(dir: string): void {
  for (const name of readdirSync(dir)) {
    const match = pidFileName.exec(name)
    if (!match) continue
    const pid = Number(match[1])
    if (pid === process.pid || isAlive(pid)) continue
    rmSync(join(dir, name), { force: true })
  }
}

/** A new file beside `path` holding this process's pid, whole before anyone can see it. */
function pidFile(path: string): string {
  const temp = `${path}.${process.pid}-${randomBytes(6).toString('hex')}`
  const fd = openSync(temp, 'wx', 0o600)
  try {
    writeSync(fd, String(process.pid))
  } finally {
    closeSync(fd)
  }
  return temp
}

/**
 * Creates `path` holding this process's pid, or returns false when it exists. Linked from a whole
 * file rather than created and then written, so no reader ever finds it empty and takes it for a
 * dead process's.
 */
function createWithPid(path: string): boolean {
  const temp = pidFile(path)
  try {
    linkSync(temp, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return false
  } finally {
    rmSync(temp, { force: true })
  }
}

function releaseLock(file: string): void {
  heldLocks.delete(file)
  rmSync(file, { force: true })
}
