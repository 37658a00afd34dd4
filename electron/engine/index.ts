/**
 * The engine: every call to the service and every credit goes through here. No Electron, Vue or DOM;
 * it runs in the main process, the web host and the CLI alike.
 *
 * Client
 * - `createServiceClient({ baseUrl, apiKey, settings?, governor?, clock?, random?, onAttempt? })` → `ServiceClient`
 *   with one typed method per endpoint. Failures throw `ServiceError` with a stable `code`
 *   (`auth`, `credits`, `plan`, `bad_request`, `not_found`, `unknown_request`, `rejected`, `rate_limited`,
 *   `server`, `network`, `timeout`, `outcome_unknown`, `invalid_response`, `cancelled`).
 *   GETs and the free company lookup are retried (429, 5xx, network) with capped, jittered backoff;
 *   charged POSTs only when nothing can have been created (429, connection refused); otherwise
 *   `outcome_unknown`, never re-sent.
 * - `RateGovernor` / `governorFor(baseUrl, key, options)`: one AIMD pacer per key (`/account` exempt);
 *   after a 401 every call with that key fails fast.
 * - `readApiKey({ env, keyFile })` → `{ ok: true, key, source } | { ok: false, error }`.
 * - `defaultSettings`, `resolveSettings(overrides)`, `scaleDurations(settings, factor)`: every
 *   "not shown" value (rate, polling, prices, statuses) is a default here.
 *   Pacing of an enrichment: unless `maxChunksInFlight` is set, the chunks in flight are sized from
 *   the rate limit and the expected time of a chunk (`chunkSize × pollLeadWorkMs`; `chunkWindow`,
 *   at most `maxChunkWindow`, in jobs/pacing.ts). A chunk is first polled when it should be done
 *   (the per-lead time learnt from the job's finished chunks, kept where about one first poll in ten
 *   is early), then every `pollIntervalMs`, backing off; searches and chunks sent by an earlier run
 *   are first polled after `pollInitialDelayMs`. Charged creates take `{ beforeSend }`
 *   (`CreateOptions`), called when the request has its rate slot, just before it leaves.
 *
 * Jobs
 * - `new JobLedger(stateDir, report?)`: durable store (atomic writes) of jobs, chunk payloads and result batches.
 *   A record that cannot be read is renamed aside and told to `report` (stderr by default) as a `SetAsideJob`.
 *   A running job writes through `ledger.writer(jobId, record)` (`JobWriter`): off the event loop, one
 *   record write at a time, each POST's intent on disk before it leaves, results on disk and named by
 *   the record before they are announced.
 * - `new JobManager({ ledger, client, settings?, clock?, random? })`:
 *   `startEnrichment({ id?, rows, options, maxCredits?, onUncertain? })`, `startLeadSearch({ search, … })`,
 *   `startCompanySearch({ search, … })` return the `JobRecord` at once and run in the background;
 *   `resume(id)`, `resumeAll()`, `list()`, `get(id)`, `settled(id)`, `cancel(id)`,
 *   `uncertainEvidence(id)`, `resolveUncertain(id, 'resubmit' | 'skip')`,
 *   `results(id, after?, limit?)` / `unacknowledged(id)` → `{ batches, cursor, complete }`, `ack(id, cursor)`,
 *   `estimateEnrichment(rows, options)`, `estimateLeadSearch(search)`, `estimateCompanySearch(search)`
 *   (minimum 0, maximum if everything is found, per `settings.prices`), `subscribe(listener)` → unsubscribe.
 *   Events: `progress` (throttled), `state`, `results` (after the batch is on disk).
 *   Job states: `queued`, `running`, `on_hold` (out of credits; resumes by itself after a top-up),
 *   `needs_attention` (uncertain or timed-out requests), `capped`, `done`, `failed`, `cancelled`.
 *   Row statuses: `found`, `not_found`, `known`, `invalid`, `not_returned`, `skipped`, `failed`.
 *   A job is run by one process at a time (a lock beside its record; a dead holder's lock is taken over).
 * - `jobIdFrom(...parts)`: a stable job id from whatever identifies the work.
 */
export { createServiceClient } from './client/client'
export type {
  CompanyLookup,
  CreateCompanySearchBody,
  CreateOptions,
  CreateEnrichmentBody,
  CreateLeadSearchBody,
  EnrichmentLead,
  Filters,
  LeadLookup,
  ServiceClient,
  ServiceClientOptions,
} from './client/client'
export type { Clock } from './client/clock'
export { seededRandom, systemClock } from './client/clock'
export { ServiceError, isServiceError } from './client/errors'
export type { ServiceErrorCode } from './client/errors'
export { RateGovernor, governorFor } from './client/governor'
export type { RateGovernorOptions } from './client/governor'
export type { HttpOutcome } from './client/http'
export type {
  Account,
  CompanyProfile,
  CompanyRow,
  CompanySearchResult,
  EnrichedLead,
  EnrichmentResult,
  LeadProfile,
  LeadRow,
  LeadSearchResult,
} from '../domain/service-shapes'
export { readApiKey } from './key-source'
export type { ApiKeySource, ReadApiKeyOptions, ReadApiKeyResult } from './key-source'
export { defaultSettings, resolveSettings, scaleDurations } from './settings'
export type { EngineSettings, SettingsOverrides } from './settings'
export type { JobEvent, JobListener, JobProgress } from './jobs/events'
export { JobLedger } from './jobs/ledger'
export type { JobWriter } from './jobs/job-writer'
export type { ResultPage } from './jobs/ledger'
export { JobManager, jobIdFrom } from './jobs/manager'
export type { JobManagerOptions, StartEnrichment, StartSearch, UncertainEvidence } from './jobs/manager'
export { normalizeDomain, normalizeRow } from './jobs/normalize'
export type { EnrichmentRow, NormalizedLead } from './jobs/normalize'
export { estimateCompanySearch, estimateEnrichment, estimateLeadSearch, maxEnrichmentCost } from './jobs/plan'
export type { EnrichmentEstimate, SearchEstimate } from './jobs/plan'
export type {
  ChunkRecord,
  ChunkState,
  EnrichmentOptions,
  JobCounts,
  JobError,
  JobKind,
  JobRecord,
  JobState,
  ResultBatch,
  ResultRow,
  RowStatus,
  SearchOptions,
  SetAsideJob,
  UncertainPolicy,
} from '../domain/jobs'
