import { setMaxListeners } from 'node:events'
import type { ServiceClient } from '../client/client'
import type { Clock } from '../client/clock'
import { ServiceError } from '../client/errors'
import type { EngineSettings } from '../settings'
import type { KindAdapter, SearchPayload, TerminatedChunk } from './adapters'
import { adapterFor } from './adapters'
import type { JobEventBus } from './events'
import type { JobLedger } from './ledger'
import { decideOutcome } from './outcome'
import { LeadWorkEstimate, chunkWindow } from './pacing'
import { companyPageCount, nextCompanyPage } from './paging'
import type { PollAnswer } from './poller'
import { pollUntilSettled } from './poller'
import type { ChunkRecord, JobError, JobRecord, ResultRow, RowStatus } from './types'

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

function jobError(error: unknown): JobError {
  if (error instanceof ServiceError) return { code: error.code, message: error.message }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) }
}

/**
 * One execution of a job: submits chunks, polls them, writes results to the ledger, and decides
 * the job's state when nothing more can happen without the caller. Every transition is saved
 * before the next network call, so a crash at any point can be resumed from the ledger.
 */
export class JobRun {
  record: JobRecord
  readonly finished: Promise<JobRecord>
  private readonly adapter: KindAdapter
  private readonly abort = new AbortController()
  private readonly inFlight = new Map<number, Promise<void>>()
  private cancelled = false
  private fatal: JobError | undefined
  private submitBlocked: JobError | undefined
  private capped = false
  private transientFailures = 0
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

  private save(forceProgress = false): void {
    this.record.updatedAt = now()
    this.ctx.ledger.save(this.record)
    this.ctx.bus.progress(this.record, forceProgress)
  }

  private setState(state: JobRecord['state'], error?: JobError): void {
    const changed = this.record.state !== state || error?.message !== this.record.error?.message
    this.record.state = state
    this.record.error = error
    this.save(true)
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
      this.prepare()
      this.setState('running')
      await this.recordStartingBalance()
      await this.loop()
    } catch (error) {
      if (!this.cancelled && !this.fatal) this.fatal = jobError(error)
    }
    await Promise.allSettled(this.inFlight.values())
    this.finish()
    return this.record
  }

  /** Turns what a previous run left behind into work for this one. */
  private prepare(): void {
    for (const chunk of this.record.chunks) {
      if (chunk.state === 'submitting') {
        // The process stopped between recording the intent and learning the request id.
        chunk.state = 'uncertain'
        chunk.error = {
          code: 'outcome_unknown',
          message: 'The run stopped while this request was being sent; the service may or may not have it.',
        }
      }
      if (chunk.state === 'timed_out' && this.resolution === 'skip') {
        this.skipChunk(chunk, 'Skipped: the request was still processing when the caller gave up on it.')
      }
      // Polling is free and the request exists, so a timed-out request is polled again, never re-sent.
      if (chunk.state === 'timed_out' && chunk.requestId) chunk.state = 'submitted'
      // An on-hold company search page charged nothing and never resumes, so sending it again is safe.
      if (chunk.state === 'held_final') chunk.state = 'pending'
      if (chunk.state === 'uncertain' && this.resolution === 'resubmit') chunk.state = 'pending'
      else if (chunk.state === 'uncertain' && this.resolution === 'skip') {
        this.skipChunk(chunk, 'Skipped: the request may not have been received.')
      } else if (chunk.state === 'uncertain') this.applyUncertainPolicy(chunk)
    }
    this.record.error = undefined
  }

  private applyUncertainPolicy(chunk: ChunkRecord): void {
    if (this.record.onUncertain === 'skip')
      this.skipChunk(chunk, 'Skipped: the request may not have been received.')
    // One automatic resubmission at most: a service failing after every create would otherwise charge again and again.
    else if (this.record.onUncertain === 'resubmit' && chunk.submissions < 2) chunk.state = 'pending'
  }

  skipChunk(chunk: ChunkRecord, note: string): void {
    chunk.state = 'skipped'
    if (this.record.kind !== 'enrichment') return
    const keys = this.ctx.ledger
      .readPayload<{ rowKeys: string[] }[]>(this.record.id, chunk.index)
      .flatMap((lead) => lead.rowKeys)
    this.writeResults(
      chunk.index,
      keys.map((key) => ({ key, status: 'skipped', note })),
    )
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
          this.track(chunk)
        }
      }
      while (!this.cancelled && !this.fatal && !this.submitBlocked && this.inFlight.size < limit) {
        const next = this.record.chunks.find((chunk) => chunk.state === 'pending')
        if (!next) break
        if (this.wouldPassCap(next)) {
          this.capped = true
          break
        }
        await this.submit(next)
        if (next.state === 'submitted') this.track(next)
        else if (next.state === 'pending' && !this.submitBlocked) {
          await this.ctx.clock.sleep(this.ctx.settings.retryMaxDelayMs, this.abort.signal)
        }
      }
      if (this.inFlight.size === 0) return
      await Promise.race(this.inFlight.values())
    }
  }

  private track(chunk: ChunkRecord): void {
    const task = this.poll(chunk)
      .catch((error: unknown) => {
        if (this.cancelled) return
        this.fatal = jobError(error)
        this.abort.abort(error)
      })
      .finally(() => this.inFlight.delete(chunk.index))
    this.inFlight.set(chunk.index, task)
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

  private async submit(chunk: ChunkRecord): Promise<void> {
    const payload = this.ctx.ledger.readPayload<unknown>(this.record.id, chunk.index)
    chunk.state = 'submitting'
    chunk.intentAt = now()
    chunk.balanceBefore = this.record.lastBalance
    chunk.submissions += 1
    chunk.error = undefined
    this.record.requestsSent += 1
    this.save()
    try {
      const requestId = await this.adapter.create(payload)
      chunk.state = 'submitted'
      chunk.requestId = requestId
      chunk.submittedAt = now()
      this.acceptedAt.set(chunk.index, this.ctx.clock.now())
      this.transientFailures = 0
      this.save()
    } catch (error) {
      this.onSubmitFailed(chunk, error)
    }
  }

  private onSubmitFailed(chunk: ChunkRecord, error: unknown): void {
    const failure = jobError(error)
    chunk.error = failure
    switch (failure.code) {
      case 'outcome_unknown':
        chunk.state = 'uncertain'
        this.applyUncertainPolicy(chunk)
        break
      case 'rate_limited':
      case 'network':
      case 'timeout':
      case 'server':
        // Nothing was created (the client reports anything doubtful as outcome_unknown): try again later.
        chunk.state = 'pending'
        chunk.submissions -= 1
        if (++this.transientFailures >= maxTransientSubmitFailures) this.submitBlocked = failure
        break
      case 'auth':
      case 'credits':
      case 'plan':
      case 'not_found':
        // Refused before anything was created, and every other chunk would be refused alike (a 404 on a
        // create means a wrong address): the chunk stays pending for a resume after the fix.
        chunk.state = 'pending'
        chunk.submissions -= 1
        this.submitBlocked = failure
        break
      case 'cancelled':
        chunk.state = 'pending'
        chunk.submissions -= 1
        break
      default:
        this.failChunk(chunk, failure)
    }
    this.save()
  }

  private failChunk(chunk: ChunkRecord, failure: JobError): void {
    chunk.state = 'failed'
    chunk.error = failure
    if (this.record.kind !== 'enrichment') return
    const keys = this.ctx.ledger
      .readPayload<{ rowKeys: string[] }[]>(this.record.id, chunk.index)
      .flatMap((lead) => lead.rowKeys)
    this.writeResults(
      chunk.index,
      keys.map((key) => ({ key, status: 'failed', note: failure.message })),
    )
  }

  private async poll(chunk: ChunkRecord): Promise<void> {
    const requestId = chunk.requestId
    if (!requestId) throw new Error(`Chunk ${chunk.index} has no request id`)
    // Searches are quick; a chunk sent by an earlier run may be done already: both are polled soon.
    const expectsLeadWork = this.record.kind === 'enrichment' && this.acceptedAt.has(chunk.index)
    let outcome
    try {
      outcome = await pollUntilSettled({
        requestId,
        get: (id, signal) => this.adapter.get(id, signal),
        settings: this.ctx.settings,
        clock: this.ctx.clock,
        random: this.ctx.random,
        signal: this.abort.signal,
        holdIsFinal: this.adapter.holdIsFinal,
        firstDelayMs: expectsLeadWork ? this.leadWork.firstPollDelayMs(chunk.size) : undefined,
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
        if (acceptedAt !== undefined) this.leadWork.observe(chunk.size, this.ctx.clock.now() - acceptedAt)
        this.onTerminated(chunk, outcome.answer)
        // Storing the results saved the record with the chunk done: a second save would only cost an fsync.
        return
      case 'held_final':
        chunk.state = 'held_final'
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
        chunk.state = 'timed_out'
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
        this.failChunk(chunk, {
          code: outcome.error.code,
          message: `The service no longer knows request ${requestId}: ${outcome.error.message}`,
        })
        break
    }
    this.save()
  }

  private noteBalance(answer: PollAnswer<unknown>): void {
    if (answer.creditsLeft !== undefined) this.record.lastBalance = answer.creditsLeft
  }

  private onPollAnswer(chunk: ChunkRecord, answer: PollAnswer<unknown>): void {
    this.noteBalance(answer)
    if (answer.status === 'on_hold') this.acceptedAt.delete(chunk.index)
    const next = answer.status === 'on_hold' ? 'on_hold' : 'submitted'
    const changed = chunk.state !== next
    chunk.state = next
    // Checked on every answer, not only on a change: a resumed run starts `running` with chunks already on hold.
    const anyOnHold = this.record.chunks.some((c) => c.state === 'on_hold')
    if (anyOnHold && this.record.state === 'running') {
      this.setState('on_hold', {
        code: 'credits',
        message: 'Out of credits: the service paused this job. It resumes by itself after a top-up.',
      })
    } else if (!anyOnHold && this.record.state === 'on_hold') this.setState('running')
    else if (changed) this.save()
  }

  private onTerminated(chunk: ChunkRecord, answer: PollAnswer<unknown>): void {
    this.noteBalance(answer)
    const payload = this.ctx.ledger.readPayload<unknown>(this.record.id, chunk.index)
    const result = this.adapter.toResults(payload, answer.value)
    chunk.state = 'done'
    chunk.creditsConsumed = result.creditsConsumed
    chunk.error = undefined
    this.record.creditsConsumed += result.creditsConsumed
    let rows = result.rows
    if (this.record.kind === 'company_search') {
      rows = this.dedupe(rows)
      this.planNextPage(chunk, payload as SearchPayload, result)
    }
    if (this.record.kind !== 'enrichment') this.record.counts.rows += rows.length
    this.writeResults(chunk.index, rows)
    if (this.record.state === 'on_hold' && !this.record.chunks.some((c) => c.state === 'on_hold')) {
      this.setState('running')
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

  private planNextPage(chunk: ChunkRecord, payload: SearchPayload, result: TerminatedChunk): void {
    const found = result.totalAvailable ?? 0
    this.record.totalAvailable = found
    const limit = payload.limit ?? 100
    this.record.estimateMax =
      companyPageCount(this.record.search, found) * limit * this.ctx.settings.prices.companySearchResult
    const next = nextCompanyPage(this.record, chunk, payload, result.rows.length, found)
    if (!next) return
    // The payload is on disk before the record names the page, so a crash cannot leave a page without one.
    this.ctx.ledger.writePayload(this.record.id, next.chunk.index, next.payload)
    this.record.chunks.push(next.chunk)
  }

  /** Results reach the ledger (with the chunk's new state) before anyone is told about them. */
  private writeResults(chunkIndex: number | null, rows: ResultRow[]): void {
    const counted: Partial<Record<RowStatus, number>> = {}
    for (const row of rows) counted[row.status] = (counted[row.status] ?? 0) + 1
    this.record.counts.done += rows.length
    this.record.counts.found += counted.found ?? 0
    this.record.counts.notFound += counted.not_found ?? 0
    this.record = this.ctx.ledger.appendResults(this.record, { chunkIndex, rows })
    this.ctx.bus.emit({
      type: 'results',
      jobId: this.record.id,
      seq: this.record.resultSeq,
      rows: rows.length,
    })
    this.ctx.bus.progress(this.record)
  }

  private finish(): void {
    const { state, error } = decideOutcome(this.record, {
      cancelled: this.cancelled,
      fatal: this.fatal,
      submitBlocked: this.submitBlocked,
      capped: this.capped,
    })
    this.setState(state, error)
  }
}
