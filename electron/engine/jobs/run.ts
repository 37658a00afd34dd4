import { setMaxListeners } from 'node:events'
import type { ServiceClient } from '../client/client'
import type { Clock } from '../client/clock'
import { ServiceError } from '../client/errors'
import type { EngineSettings } from '../settings'
import type { KindAdapter } from './adapters'
import { adapterFor } from './adapters'
import { nextChunkState, restartEvents, uncertainPolicy, type ChunkEvent } from './chunk-states'
import type { JobEventBus } from './events'
import type { JobWriter } from './job-writer'
import type { JobLedger } from './ledger'
import { decideOutcome } from './outcome'
import { LeadWorkEstimate, chunkWindow } from './pacing'
import type { PollAnswer } from './poller'
import { pollUntilSettled } from './poller'
import type { ChunkRecord, JobError, JobRecord, ResultRow, RowStatus } from '../../domain/jobs'

export interface RunContext {
  ledger: JobLedger
  client: ServiceClient
  settings: EngineSettings
  clock: Clock
  random: () => number
  bus: JobEventBus
}

/** Submissions refused for a reason that passes (429 budget spent, service unreachable) before the job gives up. */
const maxTransientSubmitFailures = 3

const now = (): string => new Date().toISOString()

/** Every change of a chunk's state goes through the table (`chunk-states.ts`). */
function move(chunk: ChunkRecord, event: ChunkEvent): void {
  chunk.state = nextChunkState(chunk.state, event)
}

function jobError(error: unknown): JobError {
  if (error instanceof ServiceError) return { code: error.code, message: error.message }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) }
}

/**
 * One execution of a job: submits chunks, polls them, writes results to the ledger, and decides
 * the job's state when nothing more can happen without the caller. Writes go through the job's
 * `JobWriter`, off the event loop; the ones that protect money are awaited: a POST leaves only once
 * its intent is on disk, and a chunk's results are on disk, named by the record, before anyone is
 * told. A crash at any point can be resumed from the ledger.
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
  private submitBlocked: JobError | undefined
  private capped = false
  private transientFailures = 0
  /** While set, no new submission starts: one failed for a reason that passes (429 budget spent, network). */
  private submitPause: Promise<void> | undefined
  /** Until one submission of this run is accepted, each waits for its answer before the next goes. */
  private accepting = false
  private seenKeys: Set<string> | undefined
  /** When each chunk submitted by this run was accepted; a chunk that went on hold is dropped (its time is not work). */
  private readonly acceptedAt = new Map<number, number>()
  private readonly leadWork: LeadWorkEstimate

  /** `resolution` is the caller's decision about uncertain and timed-out requests for this run. */
  constructor(
    private readonly ctx: RunContext,
    record: JobRecord,
    private readonly resolution?: 'resubmit' | 'skip',
  ) {
    this.record = record
    this.adapter = adapterFor(ctx.client, record, ctx.settings)
    this.writer = ctx.ledger.writer(record.id, () => this.record)
    this.leadWork = new LeadWorkEstimate(ctx.settings.pollLeadWorkMs)
    // Every sleep and request of every chunk in flight listens to this one signal; each removes its listener when done.
    setMaxListeners(0, this.abort.signal)
    this.finished = this.execute()
  }

  /** Stops at once: no POST is sent after this, polls end, the job is `cancelled`. */
  cancel(): void {
    this.cancelled = true
    this.abort.abort(new ServiceError({ code: 'cancelled', message: 'The job was cancelled.' }))
  }

  /** Records that the caller stored every batch up to `cursor`; never moves backwards. */
  /** A new credit cap for the submissions still to come (checked before each one). */
  setCap(maxCredits: number | undefined): void {
    this.record.maxCredits = maxCredits
    this.inBackground(this.save(true))
  }

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
          await this.skipChunk(
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

  private async applyUncertainPolicy(chunk: ChunkRecord): Promise<void> {
    const say = uncertainPolicy(chunk, this.record.onUncertain)
    if (say === 'skip') await this.skipChunk(chunk, 'Skipped: the request may not have been received.')
    else if (say === 'resend') move(chunk, 'resend')
  }

  /** The chunk is `skipped` in the record only once its rows' results are on disk. */
  private async skipChunk(chunk: ChunkRecord, note: string): Promise<void> {
    if (!this.adapter.callerRows) {
      move(chunk, 'skip')
      return
    }
    await this.writeResults(
      chunk.index,
      this.rowKeysOf(chunk).map((key) => ({ key, status: 'skipped', note })),
      () => move(chunk, 'skip'),
    )
  }

  private rowKeysOf(chunk: ChunkRecord): string[] {
    return this.ctx.ledger
      .readPayload<{ rowKeys: string[] }[]>(this.record.id, chunk.index)
      .flatMap((lead) => lead.rowKeys)
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
          this.track(chunk, this.poll(chunk))
        }
      }
      while (!this.cancelled && !this.fatal && !this.submitBlocked && this.inFlight.size < limit) {
        if (this.submitPause) {
          await this.submitPause
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
    const submitted = this.submit(chunk, leaving)
    const task = this.track(
      chunk,
      submitted.then(() => (chunk.state === 'submitted' ? this.poll(chunk) : undefined)),
    )
    const answered = submitted.catch(() => undefined)
    return Promise.race([this.accepting ? left : answered, task])
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

  /** `leaving` is called when the POST goes out, after its intent is on disk. */
  private async submit(chunk: ChunkRecord, leaving: () => void): Promise<void> {
    const payload = this.ctx.ledger.readPayload<unknown>(this.record.id, chunk.index)
    move(chunk, 'send')
    chunk.intentAt = now()
    chunk.balanceBefore = this.record.lastBalance
    chunk.submissions += 1
    chunk.error = undefined
    this.record.requestsSent += 1
    // If the intent cannot be written the job stops; a resume treats the chunk as uncertain, which is safe.
    await this.save()
    try {
      const requestId = await this.adapter.create(payload, () => {
        // Cancelled while the intent was written or the rate slot awaited: nothing leaves.
        if (this.cancelled) throw this.abort.signal.reason
        leaving()
      })
      move(chunk, 'accepted')
      chunk.requestId = requestId
      chunk.submittedAt = now()
      this.acceptedAt.set(chunk.index, this.ctx.clock.now())
      this.transientFailures = 0
      this.accepting = true
    } catch (error) {
      await this.onSubmitFailed(chunk, error)
      return
    }
    await this.save()
  }

  private async onSubmitFailed(chunk: ChunkRecord, error: unknown): Promise<void> {
    const failure = jobError(error)
    chunk.error = failure
    switch (failure.code) {
      case 'outcome_unknown':
        move(chunk, 'unsure')
        await this.applyUncertainPolicy(chunk)
        break
      case 'rate_limited':
      case 'network':
      case 'timeout':
      case 'server':
        // Nothing was created (the client reports anything doubtful as outcome_unknown): try again later.
        move(chunk, 'refused')
        chunk.submissions -= 1
        this.pauseSubmissions(failure)
        break
      case 'auth':
      case 'credits':
      case 'plan':
      case 'not_found':
        // Refused before anything was created, and every other chunk would be refused alike (a 404 on a
        // create means a wrong address): the chunk stays pending for a resume after the fix.
        move(chunk, 'refused')
        chunk.submissions -= 1
        this.submitBlocked = failure
        break
      case 'cancelled':
        move(chunk, 'refused')
        chunk.submissions -= 1
        break
      default:
        await this.failChunk(chunk, failure)
    }
    await this.save()
  }

  /**
   * Submissions that fail together (one 429 burst) count once: new ones wait `retryMaxDelayMs`, and
   * only failures on either side of such a pause add up to blocking the job. A service out of reach
   * never blocks it: the job waits, and goes on as soon as any call of the app gets an answer again.
   */
  private pauseSubmissions(failure: JobError): void {
    if (this.submitPause) return
    const unreachable = failure.code === 'network' || failure.code === 'timeout'
    if (!unreachable && ++this.transientFailures >= maxTransientSubmitFailures) {
      this.submitBlocked = failure
      return
    }
    const waited = new AbortController()
    const stop = AbortSignal.any([this.abort.signal, waited.signal])
    const off = unreachable
      ? this.ctx.client.reach.onChange((view) => {
          if (view.state !== 'unreachable') waited.abort()
        })
      : () => undefined
    const pause = this.ctx.clock
      .sleep(this.ctx.settings.retryMaxDelayMs, stop)
      .catch(() => undefined)
      .finally(() => {
        off()
        if (this.submitPause === pause) this.submitPause = undefined
      })
    this.submitPause = pause
  }

  /** The chunk is `failed` in the record only once its rows' results are on disk. */
  private async failChunk(chunk: ChunkRecord, failure: JobError): Promise<void> {
    chunk.error = failure
    if (!this.adapter.callerRows) {
      move(chunk, 'fail')
      return
    }
    await this.writeResults(
      chunk.index,
      this.rowKeysOf(chunk).map((key) => ({ key, status: 'failed', note: failure.message })),
      () => move(chunk, 'fail'),
    )
  }

  private async poll(chunk: ChunkRecord): Promise<void> {
    const requestId = chunk.requestId
    if (!requestId) throw new Error(`Chunk ${chunk.index} has no request id`)
    // Searches are quick; a chunk sent by an earlier run may be done already: both are polled soon.
    const expectsLeadWork = this.adapter.pacedByLeadWork && this.acceptedAt.has(chunk.index)
    const answeredAt: number[] = []
    const aimedMs = expectsLeadWork ? this.leadWork.firstPollDelayMs(chunk.size) : undefined
    let outcome
    try {
      outcome = await pollUntilSettled({
        requestId,
        get: async (id, signal) => {
          const answer = await this.adapter.get(id, signal)
          answeredAt.push(this.ctx.clock.now())
          return answer
        },
        settings: this.ctx.settings,
        clock: this.ctx.clock,
        random: this.ctx.random,
        signal: this.abort.signal,
        holdIsFinal: this.adapter.holdIsFinal,
        firstDelayMs: aimedMs,
        onAnswer: (answer) => this.onPollAnswer(chunk, answer),
      })
    } catch (error) {
      if (this.abort.signal.aborted) return
      throw error
    }
    const acceptedAt = this.acceptedAt.get(chunk.index)
    this.acceptedAt.delete(chunk.index)
    switch (outcome.kind) {
      case 'terminated':
        if (acceptedAt !== undefined && answeredAt.length > 0) {
          this.leadWork.observe(
            chunk.size,
            answeredAt[0]! - acceptedAt,
            answeredAt.at(-1)! - acceptedAt,
            aimedMs,
          )
        }
        // Storing the results saves the record with the chunk done: a second save would only cost a write.
        return this.onTerminated(chunk, outcome.answer)
      case 'held_final':
        move(chunk, 'heldFinal')
        chunk.error = {
          code: 'credits',
          message:
            `Company search page at offset ${chunk.offset ?? 0} (request ${requestId}) went on hold: the balance ` +
            'could not cover it. Nothing was charged for it, and it never resumes: top up, then run the job again ' +
            'to submit it again.',
        }
        this.noteBalance(outcome.answer)
        break
      case 'timed_out':
        move(chunk, 'timedOut')
        chunk.error = {
          code: 'timeout',
          message:
            (outcome.lastError
              ? `Request ${requestId} got no usable answer for ${Math.round(outcome.elapsedMs / 1000)} s ` +
                `(last: ${outcome.lastError.message}). `
              : `Request ${requestId} was still processing after ${Math.round(outcome.elapsedMs / 1000)} s. `) +
            'Resume the job to keep polling it (it is not sent again), or skip it.',
        }
        break
      case 'lost':
        await this.failChunk(chunk, {
          code: outcome.error.code,
          message: `The service no longer knows request ${requestId}: ${outcome.error.message}`,
        })
        break
    }
    await this.save()
  }

  private noteBalance(answer: PollAnswer<unknown>): void {
    if (answer.creditsLeft !== undefined) this.record.lastBalance = answer.creditsLeft
  }

  private onPollAnswer(chunk: ChunkRecord, answer: PollAnswer<unknown>): void {
    this.noteBalance(answer)
    if (answer.status === 'on_hold') this.acceptedAt.delete(chunk.index)
    const before = chunk.state
    move(chunk, answer.status === 'on_hold' ? 'held' : 'processing')
    const changed = chunk.state !== before
    // Checked on every answer, not only on a change: a resumed run starts `running` with chunks already on hold.
    const anyOnHold = this.record.chunks.some((c) => c.state === 'on_hold')
    if (anyOnHold && this.record.state === 'running') {
      this.inBackground(
        this.setState('on_hold', {
          code: 'credits',
          message: 'Out of credits: the service paused this job. It resumes by itself after a top-up.',
        }),
      )
    } else if (!anyOnHold && this.record.state === 'on_hold') this.inBackground(this.setState('running'))
    else if (changed) this.inBackground(this.save())
  }

  private async onTerminated(chunk: ChunkRecord, answer: PollAnswer<unknown>): Promise<void> {
    this.noteBalance(answer)
    const payload = this.ctx.ledger.readPayload<unknown>(this.record.id, chunk.index)
    const result = this.adapter.toResults(payload, answer.value)
    let rows = result.rows
    let nextPage: ChunkRecord | undefined
    if (this.adapter.nextPage) {
      rows = this.dedupe(rows)
      const after = this.adapter.nextPage(this.record, chunk, payload, result)
      this.record.totalAvailable = after.totalAvailable
      this.record.estimateMax = after.estimateMax
      if (after.page) {
        await this.writer.writePayload(after.page.chunk.index, after.page.payload)
        nextPage = after.page.chunk
      }
    }
    await this.writeResults(chunk.index, rows, () => {
      move(chunk, 'done')
      chunk.creditsConsumed = result.creditsConsumed
      chunk.error = undefined
      this.record.creditsConsumed += result.creditsConsumed
      if (!this.adapter.callerRows) this.record.counts.rows += rows.length
      if (nextPage) this.record.chunks.push(nextPage)
    })
    if (this.record.state === 'on_hold' && !this.record.chunks.some((c) => c.state === 'on_hold')) {
      await this.setState('running')
    }
  }

  private dedupe(rows: ResultRow[]): ResultRow[] {
    if (!this.seenKeys) {
      this.seenKeys = new Set()
      const { batches } = this.ctx.ledger.results(this.record.id, 0)
      for (const batch of batches) for (const row of batch.rows) this.seenKeys.add(row.key)
    }
    const seen = this.seenKeys
    return rows.filter((row) => !seen.has(row.key) && seen.add(row.key))
  }

  /**
   * Results reach the ledger before anyone is told about them. `apply` changes the record to match
   * (the chunk's new state): it runs once the batch is on disk, and the record is saved after it.
   */
  private async writeResults(chunkIndex: number | null, rows: ResultRow[], apply: () => void): Promise<void> {
    const counted: Partial<Record<RowStatus, number>> = {}
    for (const row of rows) counted[row.status] = (counted[row.status] ?? 0) + 1
    const seq = await this.writer.appendResults({ chunkIndex, rows }, (written) => {
      apply()
      this.record.resultSeq = written
      this.record.updatedAt = now()
      this.record.counts.done += rows.length
      this.record.counts.found += counted.found ?? 0
      this.record.counts.notFound += counted.not_found ?? 0
    })
    this.ctx.bus.emit({ type: 'results', jobId: this.record.id, seq, rows: rows.length })
    this.ctx.bus.progress(this.record)
  }

  private async finish(): Promise<void> {
    const { state, error } = decideOutcome(this.record, {
      cancelled: this.cancelled,
      fatal: this.fatal,
      submitBlocked: this.submitBlocked,
      capped: this.capped,
    })
    await this.setState(state, error)
  }
}
