import type { DataKind } from './kinds'
import type { ServiceErrorCode } from './service-shapes'

export type JobKind = 'enrichment' | 'lead_search' | 'company_search'

/**
 * - `queued`: created, not started in this process.
 * - `running`: submitting or polling.
 * - `on_hold`: the service paused a request for lack of credits; it resumes by itself after a top-up.
 * - `needs_attention`: a request's outcome is unknown (uncertain) or it timed out; a decision or a resume is needed.
 * - `capped`: the credit cap stopped new submissions; raise it to continue.
 * - `done`, `failed`, `cancelled`: final until the caller resumes.
 */
export type JobState =
  'queued' | 'running' | 'on_hold' | 'needs_attention' | 'capped' | 'done' | 'failed' | 'cancelled'

/**
 * - `pending`: planned, never sent.
 * - `submitting`: intent recorded, POST in flight (after a crash this becomes `uncertain`).
 * - `submitted`: request id known; being polled.
 * - `on_hold`: the service paused it (out of credits).
 * - `held_final`: a company search page went on hold; never resumes, nothing charged, must be sent again.
 * - `uncertain`: the POST may or may not have created a request; a decision is needed.
 * - `timed_out`: polling gave up; resuming polls it again.
 * - `done`: results written to the ledger.
 * - `failed`: refused or lost for good.
 * - `skipped`: the caller chose not to send it (or not to wait for it).
 */
export type ChunkState =
  | 'pending'
  | 'submitting'
  | 'submitted'
  | 'on_hold'
  | 'held_final'
  | 'uncertain'
  | 'timed_out'
  | 'done'
  | 'failed'
  | 'skipped'

export interface JobError {
  code: ServiceErrorCode | 'timeout' | 'cap' | 'locked' | 'internal'
  message: string
}

export interface ChunkRecord {
  index: number
  state: ChunkState
  /** Unique leads (enrichment) or requested results (search page) in this chunk. */
  size: number
  requestId?: string
  /** When the POST intent was recorded. */
  intentAt?: string
  submittedAt?: string
  /** Balance known just before the POST; evidence when its outcome is uncertain. */
  balanceBefore?: number
  creditsConsumed?: number
  /** Search pages: offset sent. */
  offset?: number
  /** Enrichment: what its leads are asked for; the job's options when absent (older ledgers). */
  kinds?: DataKind[]
  /** Times the ledger recorded a POST for this chunk (more than 1 only after an explicit resubmit). */
  submissions: number
  error?: JobError
}

import type { RowStatus } from './row'
export type { RowStatus }

export interface ResultRow {
  /** The caller's row key (enrichment) or a stable id of the found lead or company (searches). */
  key: string
  status: RowStatus
  data?: Record<string, unknown>
  /** The email status when it is one of the known ones, `unknown` when the service sent another. */
  emailStatus?: string
  /** Why a row has no data, in plain words. */
  note?: string
  /** Enrichment: the kinds of data this answer covers. */
  kinds?: DataKind[]
  /** Enrichment: the key of the row whose person was sent for this one (same person, charged once). */
  twinOf?: string
}

export interface ResultBatch {
  seq: number
  chunkIndex: number | null
  rows: ResultRow[]
  /**
   * When the engine stored the batch (ms since the epoch): when its rows were answered, however
   * often they are fetched. Absent in batches written before it was kept.
   */
  at?: number
}

export interface EnrichmentOptions {
  email: boolean
  phone: boolean
  catchAll: boolean
  webhook?: string
  contactWebhook?: string
}

export interface SearchOptions {
  filters: Record<string, unknown>
  limit?: number
  offset?: number
  maxLeads?: number
  email?: boolean
  phone?: boolean
  webhook?: string
  /** Company search: pages to fetch; `undefined` fetches all pages. */
  pages?: number
}

export type UncertainPolicy = 'ask' | 'skip' | 'resubmit'

/** Counted in rows of the job's input (a person named by two rows counts twice), never in people. */
export interface JobCounts {
  rows: number
  done: number
  /** Rows whose person the service found, whatever it found for them. */
  found: number
  notFound: number
  /**
   * Of the found rows whose answer asked for an email (or a phone), those it brought one for and
   * those without (`tallyFound`): what was bought, which "found" alone does not say. Absent in runs
   * recorded before they were counted.
   */
  emails?: number
  foundWithoutEmail?: number
  phones?: number
  foundWithoutPhone?: number
}

export interface JobRecord {
  id: string
  kind: JobKind
  state: JobState
  createdAt: string
  updatedAt: string
  label?: string
  enrichment?: EnrichmentOptions
  search?: SearchOptions
  maxCredits?: number
  onUncertain: UncertainPolicy
  chunks: ChunkRecord[]
  counts: JobCounts
  creditsConsumed: number
  /** Highest credit total that could be charged for what is planned (every lead found). */
  estimateMax: number | null
  balanceAtStart?: number
  lastBalance?: number
  /** Sequence number of the last result batch written. */
  resultSeq: number
  /** Last batch the caller acknowledged. */
  ackSeq: number
  /** Company search: total matches the service reported. */
  totalAvailable?: number
  requestsSent: number
  error?: JobError
}

/** A job record the ledger could not read and renamed, so that the other jobs list and resume. */
export interface SetAsideJob {
  jobId: string
  /** Where the record now is: `job.json.unreadable-<time>` in the job's folder. */
  movedTo: string
  /** Why it could not be read, in the parser's words. */
  reason: string
}

/** Throttled progress of a job, as events carry it. */
export interface JobProgress {
  type: 'progress'
  jobId: string
  kind: JobKind
  state: JobState
  counts: JobCounts
  creditsConsumed: number
  estimateMax: number | null
  chunks: Partial<Record<ChunkState, number>>
  requestsSent: number
}

/** A page of result batches from the ledger. */
export interface ResultPage {
  batches: ResultBatch[]
  /** Pass back as `after` to continue; acknowledge it once the batches are stored. */
  cursor: number
  /** True when every written batch up to now was returned. */
  complete: boolean
}

/** What an enrichment may cost before it runs; the lowest is always 0. */
export interface EnrichmentEstimate {
  rows: number
  toSend: number
  known: number
  duplicates: number
  invalid: number
  chunks: number
  minCredits: number
  maxCredits: number
  /** People to send per kind of data asked. */
  byKind: Record<DataKind, number>
}

/** What is known about the uncertain requests of a job, with a fresh balance as evidence. */
export interface UncertainEvidence {
  jobId: string
  chunks: { index: number; leads: number; intentAt?: string; balanceBefore?: number; message?: string }[]
  /** Balance recorded when the job started, and now (undefined when the account could not be read). */
  balanceAtStart?: number
  balanceNow?: number
  /** What a resubmission could charge at most, if the first one was in fact received. */
  maxDoubleCharge: number | null
}
