import type { ServiceClient } from '../client/client'
import type { Clock } from '../client/clock'
import type { EngineSettings } from '../settings'
import type { KindAdapter } from './adapters'
import { uncertainPolicy } from './chunk-states'
import type { JobLedger } from './ledger'
import { jobError, move, now } from './run-common'
import type { RunResults } from './run-results'
import type { ChunkRecord, JobError, JobRecord } from '../../domain/jobs'

/** Submissions refused for a reason that passes (429 budget spent, service unreachable) before the job gives up. */
const maxTransientSubmitFailures = 3

/** What a run's submission side reads and calls on its run. */
export interface SubmitContext {
  /** The run's record as it is now. */
  record: () => JobRecord
  ledger: Pick<JobLedger, 'readPayload'>
  client: Pick<ServiceClient, 'reach'>
  settings: Pick<EngineSettings, 'retryMaxDelayMs'>
  clock: Clock
  adapter: Pick<KindAdapter, 'create'>
  /** The run's abort signal; its reason is what a cancelled submission throws. */
  signal: AbortSignal
  cancelled: () => boolean
  /** The run's map of when each chunk it submitted was accepted (read by the polling side). */
  acceptedAt: Map<number, number>
  results: Pick<RunResults, 'skipChunk' | 'failChunk'>
  save: () => Promise<void>
}

/**
 * The submission of a run's chunks and what a failed one means for the job: the chunk's next state,
 * a pause of new submissions, or a block of them that ends the run.
 */
export class RunSubmissions {
  private submitBlocked: JobError | undefined
  private transientFailures = 0
  /** While set, no new submission starts: one failed for a reason that passes (429 budget spent, network). */
  private submitPause: Promise<void> | undefined
  /** Until one submission of this run is accepted, each waits for its answer before the next goes. */
  private accepting = false

  constructor(private readonly ctx: SubmitContext) {}

  private get record(): JobRecord {
    return this.ctx.record()
  }

  /** Set when a refusal would repeat for every other chunk: no new submission starts. */
  get blocked(): JobError | undefined {
    return this.submitBlocked
  }

  /** While set, new submissions wait for it. */
  get paused(): Promise<void> | undefined {
    return this.submitPause
  }

  /** Whether a submission of this run was accepted. */
  get anyAccepted(): boolean {
    return this.accepting
  }

  /** `leaving` is called when the POST goes out, after its intent is on disk. */
  async submit(chunk: ChunkRecord, leaving: () => void): Promise<void> {
    const payload = this.ctx.ledger.readPayload<unknown>(this.record.id, chunk.index)
    move(chunk, 'send')
    chunk.intentAt = now()
    chunk.balanceBefore = this.record.lastBalance
    chunk.submissions += 1
    chunk.error = undefined
    this.record.requestsSent += 1
    // If the intent cannot be written the job stops; a resume treats the chunk as uncertain, which is safe.
    await this.ctx.save()
    try {
      const requestId = await this.ctx.adapter.create(payload, () => {
        // Cancelled while the intent was written or the rate slot awaited: nothing leaves.
        if (this.ctx.cancelled()) throw this.ctx.signal.reason
        leaving()
      })
      move(chunk, 'accepted')
      chunk.requestId = requestId
      chunk.submittedAt = now()
      this.ctx.acceptedAt.set(chunk.index, this.ctx.clock.now())
      this.transientFailures = 0
      this.accepting = true
    } catch (error) {
      await this.onSubmitFailed(chunk, error)
      return
    }
    await this.ctx.save()
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
        await this.ctx.results.failChunk(chunk, failure)
    }
    await this.ctx.save()
  }

  private async applyUncertainPolicy(chunk: ChunkRecord): Promise<void> {
    const say = uncertainPolicy(chunk, this.record.onUncertain)
    if (say === 'skip')
      await this.ctx.results.skipChunk(chunk, 'Skipped: the request may not have been received.')
    else if (say === 'resend') move(chunk, 'resend')
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
    const stop = AbortSignal.any([this.ctx.signal, waited.signal])
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
}
