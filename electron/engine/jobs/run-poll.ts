import type { Clock } from '../client/clock'
import type { EngineSettings } from '../settings'
import type { KindAdapter } from './adapters'
import type { JobWriter } from './job-writer'
import type { JobLedger } from './ledger'
import { LeadWorkEstimate } from './pacing'
import type { PollAnswer } from './poller'
import { pollUntilSettled } from './poller'
import { move } from './run-common'
import type { RunResults } from './run-results'
import type { ChunkRecord, JobError, JobRecord, ResultRow } from '../../domain/jobs'

/** What a run's polling side reads and calls on its run. */
export interface PollContext {
  /** The run's record as it is now. */
  record: () => JobRecord
  ledger: Pick<JobLedger, 'readPayload' | 'results'>
  writer: Pick<JobWriter, 'writePayload'>
  settings: Pick<
    EngineSettings,
    | 'pollInitialDelayMs'
    | 'pollIntervalMs'
    | 'pollMaxIntervalMs'
    | 'pollOnHoldIntervalMs'
    | 'pollTimeoutMs'
    | 'pollLeadWorkMs'
  >
  clock: Clock
  random: () => number
  adapter: Pick<
    KindAdapter,
    'pacedByLeadWork' | 'holdIsFinal' | 'callerRows' | 'get' | 'toResults' | 'nextPage'
  >
  /** The run's abort signal: polls end when it fires. */
  signal: AbortSignal
  /** The run's map of when each chunk it submitted was accepted (written by the submission side). */
  acceptedAt: Map<number, number>
  results: Pick<RunResults, 'writeResults' | 'failChunk'>
  save: () => Promise<void>
  setState: (state: JobRecord['state'], error?: JobError) => Promise<void>
  /** A save nothing waits for; the run stops if it fails. */
  inBackground: (saved: Promise<void>) => void
}

/** The polling of a run's submitted chunks and what their answers change: state, balance, results. */
export class RunPolls {
  private seenKeys: Set<string> | undefined
  private readonly leadWork: LeadWorkEstimate

  constructor(private readonly ctx: PollContext) {
    this.leadWork = new LeadWorkEstimate(ctx.settings.pollLeadWorkMs)
  }

  private get record(): JobRecord {
    return this.ctx.record()
  }

  async poll(chunk: ChunkRecord): Promise<void> {
    const requestId = chunk.requestId
    if (!requestId) throw new Error(`Chunk ${chunk.index} has no request id`)
    // Searches are quick; a chunk sent by an earlier run may be done already: both are polled soon.
    const expectsLeadWork = this.ctx.adapter.pacedByLeadWork && this.ctx.acceptedAt.has(chunk.index)
    const answeredAt: number[] = []
    const aimedMs = expectsLeadWork ? this.leadWork.firstPollDelayMs(chunk.size) : undefined
    let outcome
    try {
      outcome = await pollUntilSettled({
        requestId,
        get: async (id, signal) => {
          const answer = await this.ctx.adapter.get(id, signal)
          answeredAt.push(this.ctx.clock.now())
          return answer
        },
        settings: this.ctx.settings,
        clock: this.ctx.clock,
        random: this.ctx.random,
        signal: this.ctx.signal,
        holdIsFinal: this.ctx.adapter.holdIsFinal,
        firstDelayMs: aimedMs,
        onAnswer: (answer) => this.onPollAnswer(chunk, answer),
      })
    } catch (error) {
      if (this.ctx.signal.aborted) return
      throw error
    }
    const acceptedAt = this.ctx.acceptedAt.get(chunk.index)
    this.ctx.acceptedAt.delete(chunk.index)
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
        await this.ctx.results.failChunk(chunk, {
          code: outcome.error.code,
          message: `The service no longer knows request ${requestId}: ${outcome.error.message}`,
        })
        break
    }
    await this.ctx.save()
  }

  private noteBalance(answer: PollAnswer<unknown>): void {
    if (answer.creditsLeft !== undefined) this.record.lastBalance = answer.creditsLeft
  }

  private onPollAnswer(chunk: ChunkRecord, answer: PollAnswer<unknown>): void {
    this.noteBalance(answer)
    if (answer.status === 'on_hold') this.ctx.acceptedAt.delete(chunk.index)
    const before = chunk.state
    move(chunk, answer.status === 'on_hold' ? 'held' : 'processing')
    const changed = chunk.state !== before
    // Checked on every answer, not only on a change: a resumed run starts `running` with chunks already on hold.
    const anyOnHold = this.record.chunks.some((c) => c.state === 'on_hold')
    if (anyOnHold && this.record.state === 'running') {
      this.ctx.inBackground(
        this.ctx.setState('on_hold', {
          code: 'credits',
          message: 'Out of credits: the service paused this job. It resumes by itself after a top-up.',
        }),
      )
    } else if (!anyOnHold && this.record.state === 'on_hold')
      this.ctx.inBackground(this.ctx.setState('running'))
    else if (changed) this.ctx.inBackground(this.ctx.save())
  }

  private async onTerminated(chunk: ChunkRecord, answer: PollAnswer<unknown>): Promise<void> {
    this.noteBalance(answer)
    const payload = this.ctx.ledger.readPayload<unknown>(this.record.id, chunk.index)
    const result = this.ctx.adapter.toResults(payload, answer.value)
    let rows = result.rows
    let nextPage: ChunkRecord | undefined
    if (this.ctx.adapter.nextPage) {
      rows = this.dedupe(rows)
      const after = this.ctx.adapter.nextPage(this.record, chunk, payload, result)
      this.record.totalAvailable = after.totalAvailable
      this.record.estimateMax = after.estimateMax
      if (after.page) {
        await this.ctx.writer.writePayload(after.page.chunk.index, after.page.payload)
        nextPage = after.page.chunk
      }
    }
    await this.ctx.results.writeResults(chunk.index, rows, () => {
      move(chunk, 'done')
      chunk.creditsConsumed = result.creditsConsumed
      chunk.error = undefined
      this.record.creditsConsumed += result.creditsConsumed
      if (!this.ctx.adapter.callerRows) this.record.counts.rows += rows.length
      if (nextPage) this.record.chunks.push(nextPage)
    })
    if (this.record.state === 'on_hold' && !this.record.chunks.some((c) => c.state === 'on_hold')) {
      await this.ctx.setState('running')
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
}
