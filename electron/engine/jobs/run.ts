import { setMaxListeners } from 'node:events'
import type { ServiceClient } from '../client/client'
import type { Clock } from '../client/clock'
import { ServiceError } from '../client/errors'
import type { EngineSettings } from '../settings'
import type { KindAdapter } from './adapters'
import { adapterFor } from './adapters'
import { restartEvents } from './chunk-states'
import type { JobEventBus } from './events'
import type { JobWriter } from './job-writer'
import type { JobLedger } from './ledger'
import { decideOutcome } from './outcome'
import { chunkWindow } from './pacing'
import { jobError, move, now } from './run-common'
import { RunPolls } from './run-poll'
import { RunResults } from './run-results'
import { RunSubmissions } from './run-submit'
import type { ChunkRecord, JobError, JobRecord } from '../../domain/jobs'

export interface RunContext {
  ledger: JobLedger
  client: ServiceClient
  settings: EngineSettings
  clock: Clock
  random: () => number
  bus: JobEventBus
}

/**
 * One execution of a job: submits chunks, polls them, writes results to the ledger, and decides
 * the job's state when nothing more can happen without the caller. Writes go through the job's
 * `JobWriter`, off the event loop; the ones that protect money are awaited: a POST leaves only once
 * its intent is on disk, and a chunk's results are on disk, named by the record, before anyone is
 * told. A crash at any point can be resumed from the ledger. This class holds the lifecycle and the
 * scheduling loop; submitting, polling and writing results are its parts (`run-submit.ts`,
 * `run-poll.ts`, `run-results.ts`), each given only what it reads and calls on the run.
 */
export class JobRun {
  record: JobRecord
  readonly finished: Promise<JobRecord>
  private readonly adapter: KindAdapter
  private readonly writer: JobWriter
  private readonly abort = new AbortController()
  /** Each chunk being submitted or polled (or waiting after a failed submission) by this run. */
  private readonly inFlight = new Map<number, Promise<void>>()
  private cancelled = false
  private fatal: JobError | undefined
  private capped = false
  /** When each chunk submitted by this run was accepted; a chunk that went on hold is dropped (its time is not work). */
  private readonly acceptedAt = new Map<number, number>()
  private readonly results: RunResults
  private readonly submissions: RunSubmissions
  private readonly polls: RunPolls

  /** `resolution` is the caller's decision about uncertain and timed-out requests for this run. */
  constructor(
    private readonly ctx: RunContext,
    record: JobRecord,
    private readonly resolution?: 'resubmit' | 'skip',
  ) {
    this.record = record
    this.adapter = adapterFor(ctx.client, record, ctx.settings)
    this.writer = ctx.ledger.writer(record.id, () => this.record)
    // What every part of the run reads: the record as it is now, its ledger and its kind.
    const part = { record: () => this.record, ledger: ctx.ledger, adapter: this.adapter }
    this.results = new RunResults({ ...part, writer: this.writer, bus: ctx.bus })
    // What the submissions and the polls share besides: their pace, their stop, and the results.
    const sending = {
      ...part,
      settings: ctx.settings,
      clock: ctx.clock,
      signal: this.abort.signal,
      acceptedAt: this.acceptedAt,
      results: this.results,
      save: () => this.save(),
    }
    this.submissions = new RunSubmissions({
      ...sending,
      client: ctx.client,
      cancelled: () => this.cancelled,
    })
    this.polls = new RunPolls({
      ...sending,
      writer: this.writer,
      random: ctx.random,
      setState: (state, error) => this.setState(state, error),
      inBackground: (saved) => this.inBackground(saved),
    })
    // Every sleep and request of every chunk in flight listens to this one signal; each removes its listener when done.
    setMaxListeners(0, this.abort.signal)
    this.finished = this.execute()
  }

  /** Stops at once: no POST is sent after this, polls end, the job is `cancelled`. */
  cancel(): void {
    this.cancelled = true
    this.abort.abort(new ServiceError({ code: 'cancelled', message: 'The job was cancelled.' }))
  }

  /** A new credit cap for the submissions still to come (checked before each one). */
  setCap(maxCredits: number | undefined): void {
    this.record.maxCredits = maxCredits
    this.inBackground(this.save(true))
  }

  /** Records that the caller stored every batch up to `cursor`; never moves backwards. */
  ack(cursor: number): void {
    this.record.ackSeq = Math.min(this.record.resultSeq, Math.max(this.record.ackSeq, cursor))
    this.inBackground(this.save())
  }

  private save(forceProgress = false): Promise<void> {
    this.record.updatedAt = now()
    this.ctx.bus.progress(this.record, forceProgress)
    return this.writer.save()
  }

  /** A save nothing waits for; if the disk fails, the job stops as it would on an awaited one. */
  private inBackground(saved: Promise<void>): void {
    saved.catch((error: unknown) => {
      if (this.cancelled || this.fatal) return
      this.fatal = jobError(error)
      this.abort.abort(error)
    })
  }

  private async setState(state: JobRecord['state'], error?: JobError): Promise<void> {
    const changed = this.record.state !== state || error?.message !== this.record.error?.message
    this.record.state = state
    this.record.error = error
    await this.save(true)
    if (changed) this.ctx.bus.emit({ type: 'state', jobId: this.record.id, state, error })
  }

  private async execute(): Promise<JobRecord> {
    const lock = this.ctx.ledger.lock(this.record.id)
    if (!lock.ok) {
      // Another live process runs this job and owns its record: report without writing anything.
      this.record = { ...this.record, state: 'failed' }
      this.record.error = {
        code: 'locked',
        message: `This job is running in another process (pid ${lock.pid}). Wait for it to finish or stop it first.`,
      }
      this.ctx.bus.emit({ type: 'state', jobId: this.record.id, state: 'failed', error: this.record.error })
      return this.record
    }
    try {
      return await this.executeLocked()
    } finally {
      lock.release()
    }
  }

  private async executeLocked(): Promise<JobRecord> {
    try {
      await this.prepare()
      // The balance is read while the record's new state reaches the disk: both come before any POST.
      await Promise.all([this.setState('running'), this.recordStartingBalance()])
      await this.loop()
    } catch (error) {
      if (!this.cancelled && !this.fatal) this.fatal = jobError(error)
    }
    await Promise.allSettled(this.inFlight.values())
    await this.finish()
    return this.record
  }

  /** Turns what a previous run left behind into work for this one (`restartEvents`). */
  private async prepare(): Promise<void> {
    for (const chunk of this.record.chunks) {
      for (const event of restartEvents(chunk, this.resolution, this.record.onUncertain)) {
        if (event === 'skip') {
          await this.results.skipChunk(
            chunk,
            chunk.state === 'timed_out'
              ? 'Skipped: the request was still processing when the caller gave up on it.'
              : 'Skipped: the request may not have been received.',
          )
          continue
        }
        move(chunk, event)
        if (event === 'interrupted')
          chunk.error = {
            code: 'outcome_unknown',
            message: 'The run stopped while this request was being sent; the service may or may not have it.',
          }
      }
    }
    this.record.error = undefined
  }

  private async recordStartingBalance(): Promise<void> {
    if (this.record.balanceAtStart !== undefined) return
    try {
      const account = await this.ctx.client.account(this.abort.signal)
      this.record.balanceAtStart = account.credits_left
      this.record.lastBalance = account.credits_left
    } catch (error) {
      if (error instanceof ServiceError && (error.code === 'auth' || error.code === 'cancelled')) throw error
    }
  }

  private async loop(): Promise<void> {
    const limit = this.adapter.sequential ? 1 : chunkWindow(this.ctx.settings)
    for (;;) {
      if (this.cancelled || this.fatal) return
      for (const chunk of this.record.chunks) {
        if ((chunk.state === 'submitted' || chunk.state === 'on_hold') && !this.inFlight.has(chunk.index)) {
          this.track(chunk, this.polls.poll(chunk))
        }
      }
      while (!this.cancelled && !this.fatal && !this.submissions.blocked && this.inFlight.size < limit) {
        if (this.submissions.paused) {
          await this.submissions.paused
          continue
        }
        const next = this.record.chunks.find(
          (chunk) => chunk.state === 'pending' && !this.inFlight.has(chunk.index),
        )
        if (!next) break
        if (this.wouldPassCap(next)) {
          this.capped = true
          break
        }
        await this.startSubmission(next)
      }
      if (this.inFlight.size === 0) return
      await Promise.race(this.inFlight.values())
    }
  }

  /**
   * Submits a chunk, then polls it, as one task in flight. Resolves as soon as its POST leaves (or it
   * ends without one): the next chunk's intent is written while this POST travels, never earlier, so
   * at most one recorded intent is waiting for a rate slot when the process dies. The first submission
   * of a run is answered before the next leaves, so that a wrong address, a refused key or plan stop
   * the job after one request.
   */
  private startSubmission(chunk: ChunkRecord): Promise<void> {
    let leaving!: () => void
    const left = new Promise<void>((resolve) => (leaving = resolve))
    const submitted = this.submissions.submit(chunk, leaving)
    const task = this.track(
      chunk,
      submitted.then(() => (chunk.state === 'submitted' ? this.polls.poll(chunk) : undefined)),
    )
    const answered = submitted.catch(() => undefined)
    return Promise.race([this.submissions.anyAccepted ? left : answered, task])
  }

  private track(chunk: ChunkRecord, work: Promise<void>): Promise<void> {
    const task = work
      .catch((error: unknown) => {
        if (this.cancelled) return
        this.fatal = jobError(error)
        this.abort.abort(error)
      })
      .finally(() => this.inFlight.delete(chunk.index))
    this.inFlight.set(chunk.index, task)
    return task
  }

  /** Charged plus the most every outstanding and this chunk could cost must stay within the cap. */
  private wouldPassCap(next: ChunkRecord): boolean {
    const cap = this.record.maxCredits
    if (cap === undefined) return false
    let committed = this.record.creditsConsumed
    for (const chunk of this.record.chunks) {
      if (
        chunk === next ||
        ['submitting', 'submitted', 'on_hold', 'uncertain', 'timed_out'].includes(chunk.state)
      ) {
        const cost = this.adapter.maxCost(chunk)
        if (cost === null) return true
        committed += cost
      }
    }
    return committed > cap
  }

  private async finish(): Promise<void> {
    const { state, error } = decideOutcome(this.record, {
      cancelled: this.cancelled,
      fatal: this.fatal,
      submitBlocked: this.submissions.blocked,
      capped: this.capped,
    })
    await this.setState(state, error)
  }
}
