import { createHash, randomUUID, type Hash } from 'node:crypto'
import type { ServiceClient } from '../client/client'
import type { Clock } from '../client/clock'
import { systemClock } from '../client/clock'
import type { EngineSettings } from '../settings'
import { companySearchBody, leadSearchBody } from '../../shared/requests'
import type { JobListener } from './events'
import { JobEventBus } from './events'
import type { JobLedger, ResultPage } from './ledger'
import type { EnrichmentRow } from './normalize'
import type { EnrichmentEstimate, SearchEstimate } from './plan'
import {
  estimateCompanySearch,
  estimateEnrichment,
  estimateLeadSearch,
  maxEnrichmentCost,
  maxPlanCost,
  planEnrichment,
} from './plan'
import { maxCostOf } from '../../domain/kinds'
import { rowNotes } from '../../domain/row'
import { JobRun } from './run'
import type {
  ChunkRecord,
  EnrichmentOptions,
  JobKind,
  JobRecord,
  ResultRow,
  SearchOptions,
  UncertainPolicy,
  UncertainEvidence,
} from '../../domain/jobs'

export type { UncertainEvidence }

export interface JobManagerOptions {
  ledger: JobLedger
  client: ServiceClient
  /** Defaults to the client's settings. */
  settings?: EngineSettings
  clock?: Clock
  random?: () => number
}

interface CommonStart {
  /** Stable id, e.g. derived from input and options so that running the same thing again resumes it. */
  id?: string
  label?: string
  /** Stop submitting before the credits charged could pass this. */
  maxCredits?: number
  /** What to do when a submission's outcome is unknown; `ask` leaves the job in `needs_attention`. */
  onUncertain?: UncertainPolicy
}

export interface StartEnrichment extends CommonStart {
  rows: readonly EnrichmentRow[]
  options: EnrichmentOptions
}

export interface StartSearch extends CommonStart {
  search: SearchOptions
}

const activeStates = new Set<JobRecord['state']>(['queued', 'running', 'on_hold', 'needs_attention'])

/** Builds a job id from anything that identifies the work, e.g. input bytes, options and output path. */
export function jobIdFrom(...parts: string[]): string {
  return jobIdContinuing(createHash('sha256'), ...parts)
}

/**
 * The same id when the first parts were already fed to `hash` (each followed by '\0'), so that a
 * large input can be hashed as it streams.
 */
export function jobIdContinuing(hash: Hash, ...parts: string[]): string {
  for (const part of parts) hash.update(part).update('\0')
  return `job-${hash.digest('hex').slice(0, 24)}`
}

/**
 * The registry of jobs: starts, resumes, cancels, and answers questions about them. Every job lives
 * in the ledger; this object holds the runs active in this process.
 */
export class JobManager {
  private readonly ledger: JobLedger
  private readonly client: ServiceClient
  private readonly settings: EngineSettings
  private readonly clock: Clock
  private readonly random: () => number
  private readonly bus: JobEventBus
  private readonly runs = new Map<string, JobRun>()

  constructor(options: JobManagerOptions) {
    this.ledger = options.ledger
    this.client = options.client
    this.settings = options.settings ?? options.client.settings
    this.clock = options.clock ?? systemClock
    this.random = options.random ?? Math.random
    this.bus = new JobEventBus(1000 / Math.max(1, this.settings.progressEventsPerSecond))
  }

  subscribe(listener: JobListener): () => void {
    return this.bus.subscribe(listener)
  }

  estimateEnrichment(
    rows: readonly EnrichmentRow[],
    options: Pick<EnrichmentOptions, 'email' | 'phone'> & { catchAll?: boolean },
  ): EnrichmentEstimate {
    return estimateEnrichment(rows, options, this.settings)
  }

  estimateLeadSearch(search: SearchOptions): SearchEstimate {
    return estimateLeadSearch(search, this.settings.prices)
  }

  estimateCompanySearch(search: SearchOptions): SearchEstimate {
    return estimateCompanySearch(search, this.settings.prices)
  }

  /** Starts an enrichment; when a job with the same `id` exists it is resumed instead (never paid twice). */
  startEnrichment(input: StartEnrichment): JobRecord {
    const existing = this.existing(input.id, input)
    if (existing) return existing
    const plan = planEnrichment(input.rows, this.settings.chunkSize, input.options)
    const chunks = plan.chunks.map((leads, index): ChunkRecord => ({
      index,
      state: 'pending',
      size: leads.length,
      submissions: 0,
      ...(leads[0]?.kinds ? { kinds: leads[0].kinds } : {}),
    }))
    const record = this.newRecord('enrichment', input, chunks, {
      enrichment: input.options,
      estimateMax: maxPlanCost(plan.chunks.flat(), this.settings.prices),
    })
    record.counts.rows = plan.rows
    const preset: ResultRow[] = [
      ...plan.knownKeys.map((key): ResultRow => ({ key, status: 'known', note: 'Already known; not sent.' })),
      ...plan.invalidKeys.map((key): ResultRow => ({
        key,
        status: 'invalid',
        note: rowNotes.invalid,
      })),
    ]
    record.counts.done += preset.length
    const saved = this.ledger.create(
      record,
      plan.chunks,
      preset.length ? { chunkIndex: null, rows: preset } : undefined,
    )
    return this.run(saved)
  }

  startLeadSearch(input: StartSearch): JobRecord {
    const existing = this.existing(input.id, input)
    if (existing) return existing
    const { search } = input
    const payload = leadSearchBody(search)
    const size = search.maxLeads ?? search.limit ?? 0
    const record = this.newRecord(
      'lead_search',
      input,
      [{ index: 0, state: 'pending', size, submissions: 0, offset: search.offset }],
      {
        search,
        estimateMax: estimateLeadSearch(search, this.settings.prices).maxCredits,
      },
    )
    this.ledger.create(record, [payload])
    return this.run(record)
  }

  /** Fetches pages one at a time (`limit` constant, `offset` raised by `limit`), `search.pages` of them or all. */
  startCompanySearch(input: StartSearch): JobRecord {
    const existing = this.existing(input.id, input)
    if (existing) return existing
    const { search } = input
    const payload = companySearchBody(search)
    const limit = payload.limit!
    const offset = payload.offset!
    const record = this.newRecord(
      'company_search',
      input,
      [{ index: 0, state: 'pending', size: limit, submissions: 0, offset }],
      {
        search,
        estimateMax: estimateCompanySearch(search, this.settings.prices).maxCredits,
      },
    )
    this.ledger.create(record, [payload])
    return this.run(record)
  }

  /** Continues a job from the ledger: submitted requests are polled, never sent again. */
  resume(jobId: string): JobRecord {
    const active = this.runs.get(jobId)
    if (active) return structuredClone(active.record)
    const record = this.ledger.load(jobId)
    if (!record) throw new Error(`Unknown job: ${jobId}`)
    return this.run(record)
  }

  /** Resumes every job that was queued, running, on hold or waiting for attention when the process stopped. */
  resumeAll(): JobRecord[] {
    return this.ledger
      .list()
      .filter((record) => activeStates.has(record.state) && !this.runs.has(record.id))
      .map((record) => this.run(record))
  }

  list(): JobRecord[] {
    return this.ledger.list().map((record) => this.get(record.id) ?? record)
  }

  get(jobId: string): JobRecord | undefined {
    const active = this.runs.get(jobId)
    return active ? structuredClone(active.record) : this.ledger.load(jobId)
  }

  /** Resolves with the job once its run stops (done, failed, cancelled, capped or waiting for attention). */
  async settled(jobId: string): Promise<JobRecord> {
    const active = this.runs.get(jobId)
    if (active) return structuredClone(await active.finished)
    const record = this.ledger.load(jobId)
    if (!record) throw new Error(`Unknown job: ${jobId}`)
    return record
  }

  /** Cancelling is an outcome: the job ends `cancelled` and never sends another POST. */
  async cancel(jobId: string): Promise<JobRecord> {
    const active = this.runs.get(jobId)
    if (active) {
      active.cancel()
      return structuredClone(await active.finished)
    }
    const record = this.ledger.load(jobId)
    if (!record) throw new Error(`Unknown job: ${jobId}`)
    if (record.state !== 'done') {
      record.state = 'cancelled'
      this.ledger.save(record)
      this.bus.emit({ type: 'state', jobId, state: 'cancelled' })
    }
    return record
  }

  /**
   * Sets the credit cap of a job (`undefined` removes it). A running job checks it before its next
   * submission; a job stopped at its cap goes on when the new one leaves room.
   */
  setCap(jobId: string, maxCredits: number | undefined): JobRecord {
    const active = this.runs.get(jobId)
    if (active) {
      active.setCap(maxCredits)
      return structuredClone(active.record)
    }
    const record = this.ledger.load(jobId)
    if (!record) throw new Error(`Unknown job: ${jobId}`)
    record.maxCredits = maxCredits
    this.ledger.save(record)
    return record.state === 'capped' ? this.run(record) : record
  }

  /** What is known about the uncertain requests of a job, with a fresh balance as evidence. */
  async uncertainEvidence(jobId: string): Promise<UncertainEvidence> {
    const record = this.get(jobId)
    if (!record) throw new Error(`Unknown job: ${jobId}`)
    const uncertain = record.chunks.filter(
      (chunk) => chunk.state === 'uncertain' || chunk.state === 'submitting',
    )
    let balanceNow: number | undefined
    try {
      balanceNow = (await this.client.account()).credits_left
    } catch {
      balanceNow = undefined
    }
    const perLead = (chunk: ChunkRecord): number | null =>
      record.kind !== 'enrichment' || !record.enrichment
        ? null
        : chunk.kinds
          ? maxCostOf(chunk.kinds, this.settings.prices)
          : maxEnrichmentCost(1, record.enrichment, this.settings.prices)
    return {
      jobId,
      chunks: uncertain.map((chunk) => ({
        index: chunk.index,
        leads: chunk.size,
        intentAt: chunk.intentAt,
        balanceBefore: chunk.balanceBefore,
        message: chunk.error?.message,
      })),
      balanceAtStart: record.balanceAtStart,
      balanceNow,
      maxDoubleCharge:
        record.kind !== 'enrichment'
          ? null
          : uncertain.reduce((sum, chunk) => sum + chunk.size * (perLead(chunk) ?? 0), 0),
    }
  }

  /**
   * Decides about uncertain (and timed-out) requests, then resumes the job.
   * `resubmit` sends uncertain requests again, which charges twice if the first submission was
   * received; timed-out requests exist for sure, so they are polled again instead of re-sent.
   * `skip` gives the rows of both up (reported as `skipped`).
   */
  async resolveUncertain(jobId: string, action: 'resubmit' | 'skip'): Promise<JobRecord> {
    const active = this.runs.get(jobId)
    if (active) await active.finished
    const record = this.ledger.load(jobId)
    if (!record) throw new Error(`Unknown job: ${jobId}`)
    return this.run(record, action)
  }

  results(jobId: string, after?: number, limit?: number): ResultPage {
    return this.ledger.results(jobId, after, limit)
  }

  /** Everything not yet acknowledged; a UI that reloads starts here. */
  unacknowledged(jobId: string, limit?: number): ResultPage {
    return this.ledger.results(jobId, undefined, limit)
  }

  ack(jobId: string, cursor: number): void {
    const active = this.runs.get(jobId)
    // A running job's record is written by its run only, so that writes never overtake one another.
    if (active) active.ack(cursor)
    else this.ledger.ack(jobId, cursor)
  }

  /** Waits for every active run; for shutdown and tests. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.runs.values()].map((run) => run.finished))
  }

  /** A job started again under its id resumes, with the caller's current cap and uncertainty policy. */
  private existing(id: string | undefined, input: CommonStart): JobRecord | undefined {
    if (id === undefined || !this.ledger.has(id)) return undefined
    if (!this.runs.has(id)) {
      const record = this.ledger.load(id)
      if (record) {
        record.maxCredits = input.maxCredits
        record.onUncertain = input.onUncertain ?? record.onUncertain
        this.ledger.save(record)
      }
    }
    return this.resume(id)
  }

  private newRecord(
    kind: JobKind,
    input: CommonStart,
    chunks: ChunkRecord[],
    extra: Pick<JobRecord, 'estimateMax'> & Partial<JobRecord>,
  ): JobRecord {
    const at = new Date().toISOString()
    return {
      id: input.id ?? `job-${randomUUID()}`,
      kind,
      state: 'queued',
      createdAt: at,
      updatedAt: at,
      label: input.label,
      maxCredits: input.maxCredits,
      onUncertain: input.onUncertain ?? 'ask',
      chunks,
      counts: {
        rows: 0,
        done: 0,
        found: 0,
        notFound: 0,
        emails: 0,
        foundWithoutEmail: 0,
        phones: 0,
        foundWithoutPhone: 0,
      },
      creditsConsumed: 0,
      resultSeq: 0,
      ackSeq: 0,
      requestsSent: 0,
      ...extra,
    }
  }

  private context() {
    return {
      ledger: this.ledger,
      client: this.client,
      settings: this.settings,
      clock: this.clock,
      random: this.random,
      bus: this.bus,
    }
  }

  private run(record: JobRecord, resolution?: 'resubmit' | 'skip'): JobRecord {
    const run = new JobRun(this.context(), record, resolution)
    this.runs.set(record.id, run)
    void run.finished.finally(() => {
      if (this.runs.get(record.id) === run) this.runs.delete(record.id)
    })
    return structuredClone(run.record)
  }
}
