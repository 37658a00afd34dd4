/**
 * The one contract between the renderer and the backend. Every channel is declared here once, as
 * `feature/verb` with zod schemas for its input and output; every event with the schema of its payload.
 * The renderer's `invoke`/`on`, the backend's handler table and both transports (Electron IPC and the
 * web host's WebSocket) derive their types from this file, so a channel without a handler, or a call
 * with the wrong input, does not compile.
 */
import { z } from 'zod'
import type { Result } from './result'
import type {
  ChunkState,
  EnrichmentEstimate,
  JobProgress,
  JobRecord,
  ResultPage,
  SetAsideJob,
  UncertainEvidence,
  JobError,
  JobState,
} from '../domain/jobs'
import type { CompanyProfile, LeadProfile } from '../domain/service-shapes'
import type { ChannelNameOf, EventNameOf } from './channels'
import { dataKinds } from '../domain/kinds'
import { isApiKeyText, isServiceAddress, serviceAddressRule } from '../domain/service-address'
import { stageBatchLimit } from './limits'

export type {
  ChunkState,
  JobCounts,
  JobError,
  JobKind,
  JobState,
  ResultBatch,
  ResultRow,
  RowStatus,
  SetAsideJob,
} from '../domain/jobs'
export type { CompanyProfile, CompanyRow, EnrichedLead, LeadProfile, LeadRow } from '../domain/service-shapes'

const noInput = z.undefined()

export const keyStorageSchema = z.enum(['encrypted', 'session', 'environment', 'file', 'none'])
export type KeyStorage = z.infer<typeof keyStorageSchema>

export const settingsViewSchema = z.object({
  /** What is in effect: the sandbox when it is chosen, or when no key is set. */
  mode: z.enum(['sandbox', 'service']),
  useSandbox: z.boolean(),
  baseUrl: z.string(),
  sandboxUrl: z.string().nullable(),
  key: z.object({
    set: z.boolean(),
    /** Never the key itself: at most its last four characters behind dots. */
    masked: z.string().nullable(),
    storage: keyStorageSchema,
  }),
  secretStore: z.object({
    /** Whether a key can be kept across restarts in the OS's secret store. */
    available: z.boolean(),
    backend: z.string(),
    note: z.string().nullable(),
  }),
  lowBalanceThreshold: z.number(),
  rateLimitPerMinute: z.number(),
})
export type SettingsView = z.infer<typeof settingsViewSchema>

export const accountViewSchema = z.object({
  mode: z.enum(['sandbox', 'service']),
  email: z.string(),
  creditsLeft: z.number(),
  checkedAt: z.string(),
})
export type AccountView = z.infer<typeof accountViewSchema>

/**
 * Whether the service answers, as the backend learnt it from its last attempt: `online` (an answer),
 * `unreachable` (none: no route, refused, timed out), `key_refused` (401), `unknown` (nothing sent
 * yet). Whether the computer itself is offline the renderer knows on its own (`navigator.onLine`).
 */
export const connectionViewSchema = z.object({
  mode: z.enum(['sandbox', 'service']),
  state: z.enum(['unknown', 'online', 'unreachable', 'key_refused']),
  /** Epoch ms since when the state holds. */
  since: z.number(),
  /** While unreachable: epoch ms of the next attempt of a waiting call or of the backend's probe. */
  retryAt: z.number().nullable(),
  /** The last failure in the network's or the service's words. */
  detail: z.string().nullable(),
})
export type ConnectionView = z.infer<typeof connectionViewSchema>

const serviceUrl = z
  .string()
  .trim()
  .refine((value) => value === '' || isServiceAddress(value), serviceAddressRule)

const apiKey = z
  .string()
  .trim()
  .min(8, 'That key is too short to be an API key.')
  .max(512, 'That key is too long to be an API key.')
  .regex(/^\S+$/, 'An API key has no spaces inside.')
  .refine(isApiKeyText, 'An API key is made of printable characters only.')

/** A job as the renderer sees it: the ledger's record with its chunks counted by state. */
export type JobView = Omit<JobRecord, 'chunks'> & { chunkStates: Partial<Record<ChunkState, number>> }

export type JobProgressEvent = Omit<JobProgress, 'type'>
export type ResultPageView = ResultPage
export type EnrichmentEstimateView = EnrichmentEstimate
export type UncertainEvidenceView = UncertainEvidence

/**
 * "Try a sample list", on the sandbox before a key is set: a CSV of the sandbox's synthetic people,
 * imported as a dropped file is, and a lead search whose people are among its rows, run first so the
 * library knows them (docs/sandbox.md).
 */
export interface SampleListView {
  fileName: string
  csv: string
  rows: number
  search: { label: string; filters: Record<string, unknown>; limit: number; email: boolean }
}

/** Outputs are produced by our own backend; their types are declared, not re-validated at run time. */
const declared = <T>() => z.custom<T>(() => true)

const jobId = z.string().regex(/^[A-Za-z0-9_-]{6,80}$/, 'Not a job id.')
const text = (max: number) => z.string().max(max).optional()
const webhookUrl = z
  .string()
  .trim()
  .url('A webhook must be a full https:// address.')
  .refine((value) => value.startsWith('https://'), 'A webhook must be a full https:// address.')

export const enrichmentRowSchema = z
  .object({
    key: z.string().min(1).max(200),
    first_name: text(300),
    last_name: text(300),
    full_name: text(600),
    company_domain: text(500),
    company_name: text(500),
    website: text(2000),
    email: text(500),
    network_url: text(2000),
    known: z.boolean().optional(),
    kinds: z.array(z.enum(dataKinds)).min(1).max(dataKinds.length).optional(),
  })
  .strict()
export type EnrichmentRowInput = z.infer<typeof enrichmentRowSchema>

const uncertainPolicy = z.enum(['ask', 'skip', 'resubmit'])
const maxCredits = z.number().min(0).max(100_000_000).optional()
const filters = z.record(z.string(), z.unknown())

export const leadSearchSchema = z
  .object({
    filters,
    limit: z.number().int().optional(),
    offset: z.number().int().optional(),
    maxLeads: z.number().int().optional(),
    email: z.boolean().optional(),
    phone: z.boolean().optional(),
    webhook: webhookUrl.optional(),
  })
  .strict()

export const companySearchSchema = z
  .object({
    filters,
    limit: z.number().int().min(1).max(200).optional(),
    offset: z.number().int().min(0).optional(),
    /** Pages to fetch; absent fetches every page. */
    pages: z.number().int().min(1).max(10_000).optional(),
  })
  .strict()

const companyLookupSchema = z
  .object({
    company_domain: z.string().trim().max(500).optional(),
    company_network_url: z.string().trim().max(2000).optional(),
  })
  .strict()
  .refine(
    (value) => Boolean(value.company_domain || value.company_network_url),
    'Give a domain or a network URL.',
  )

const leadLookupSchema = z.union([
  z.object({ network_url: z.string().trim().min(1).max(2000) }).strict(),
  z
    .object({
      first_name: z.string().trim().min(1).max(300),
      last_name: z.string().trim().min(1).max(300),
      company_domain: z.string().trim().min(1).max(500),
      company: z.string().trim().max(500).optional(),
    })
    .strict(),
])

export const channels = {
  'app/info': {
    input: noInput,
    output: z.object({
      version: z.string(),
      host: z.enum(['electron', 'web']),
      platform: z.string(),
    }),
  },
  'settings/get': { input: noInput, output: settingsViewSchema },
  'settings/update': {
    input: z
      .object({
        baseUrl: serviceUrl.optional(),
        useSandbox: z.boolean().optional(),
        lowBalanceThreshold: z.number().min(0).max(10_000_000).optional(),
        rateLimitPerMinute: z.number().int().min(1).max(100_000).optional(),
      })
      .strict(),
    output: settingsViewSchema,
  },
  'settings/setKey': {
    input: z.object({ key: apiKey, storage: z.enum(['persistent', 'session']) }).strict(),
    output: settingsViewSchema,
  },
  'settings/clearKey': { input: noInput, output: settingsViewSchema },
  'account/get': { input: noInput, output: accountViewSchema },
  'connection/get': { input: noInput, output: connectionViewSchema },
  /** Stops every call the user waits on (lookups, the balance) that is waiting to try again. */
  'connection/cancelWaits': { input: noInput, output: declared<{ cancelled: number }>() },
  'jobs/list': { input: noInput, output: declared<JobView[]>() },
  'jobs/get': { input: z.object({ jobId }).strict(), output: declared<JobView>() },
  'jobs/stageRows': {
    input: z
      .object({
        stagingId: z.string().uuid().optional(),
        rows: z.array(enrichmentRowSchema).min(1).max(stageBatchLimit),
      })
      .strict(),
    output: declared<{ stagingId: string; staged: number }>(),
  },
  'jobs/estimate': {
    input: z
      .object({ stagingId: z.string().uuid(), email: z.boolean(), phone: z.boolean(), catchAll: z.boolean() })
      .strict(),
    output: declared<EnrichmentEstimateView>(),
  },
  'jobs/startEnrichment': {
    input: z
      .object({
        jobId,
        stagingId: z.string().uuid(),
        label: z.string().max(200),
        options: z
          .object({
            email: z.boolean(),
            phone: z.boolean(),
            catchAll: z.boolean(),
            webhook: webhookUrl.optional(),
            contactWebhook: webhookUrl.optional(),
          })
          .strict(),
        maxCredits,
        onUncertain: uncertainPolicy.optional(),
      })
      .strict(),
    output: declared<JobView>(),
  },
  'jobs/startLeadSearch': {
    input: z.object({ jobId, label: z.string().max(200), search: leadSearchSchema, maxCredits }).strict(),
    output: declared<JobView>(),
  },
  'jobs/startCompanySearch': {
    input: z.object({ jobId, label: z.string().max(200), search: companySearchSchema, maxCredits }).strict(),
    output: declared<JobView>(),
  },
  'jobs/results': {
    input: z
      .object({
        jobId,
        after: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      })
      .strict(),
    output: declared<ResultPageView>(),
  },
  /** Results not acknowledged yet, a page at a time (`limit` batches, 50 by default): drain until `complete`. */
  'jobs/unacknowledged': {
    input: z.object({ jobId, limit: z.number().int().min(1).max(1000).optional() }).strict(),
    output: declared<ResultPageView>(),
  },
  'jobs/ack': {
    input: z.object({ jobId, cursor: z.number().int().min(0) }).strict(),
    output: declared<null>(),
  },
  'jobs/cancel': { input: z.object({ jobId }).strict(), output: declared<JobView>() },
  'jobs/resume': { input: z.object({ jobId }).strict(), output: declared<JobView>() },
  /** A new credit cap; `maxCredits` absent removes it. A job stopped at its cap goes on. */
  'jobs/setCap': { input: z.object({ jobId, maxCredits }).strict(), output: declared<JobView>() },
  'jobs/uncertainEvidence': {
    input: z.object({ jobId }).strict(),
    output: declared<UncertainEvidenceView>(),
  },
  'jobs/resolveUncertain': {
    input: z.object({ jobId, action: z.enum(['resubmit', 'skip']) }).strict(),
    output: declared<JobView>(),
  },
  /**
   * Job records the backend's ledgers set aside since this start, as they could not be read; each is
   * handed out once, so the window says so once, whenever it asks (at start, or after `jobs/setAside`).
   */
  'jobs/takeSetAside': { input: noInput, output: declared<SetAsideJob[]>() },
  /** Electron only: main opens the system file dialog and returns the chosen file. */
  'files/pickCsv': { input: noInput, output: declared<{ name: string; data: Uint8Array } | null>() },
  /** The sandbox's sample list; `not_available` once a key is set or the real service is in use. */
  'sandbox/sample': { input: noInput, output: declared<SampleListView>() },
  'lookup/company': { input: companyLookupSchema, output: declared<CompanyProfile>() },
  'lookup/lead': { input: leadLookupSchema, output: declared<LeadProfile>() },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>

export const events = {
  'settings/changed': settingsViewSchema,
  'account/changed': accountViewSchema,
  'connection/changed': connectionViewSchema,
  'jobs/progress': declared<JobProgressEvent>(),
  'jobs/state': declared<{ jobId: string; state: JobState; error?: JobError }>(),
  /** A batch of results is on disk; fetch it with `jobs/results` and acknowledge it with `jobs/ack`. */
  'jobs/results': declared<{ jobId: string; seq: number; rows: number }>(),
  /** A job record could not be read and was set aside; take what was with `jobs/takeSetAside`. */
  'jobs/setAside': declared<{ jobId: string }>(),
} as const satisfies Record<string, z.ZodType>

export type Channels = typeof channels
export type ChannelName = keyof Channels
export type EventName = keyof typeof events

/** What the caller passes (before defaults and trimming). */
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>
/** What the handler receives, after the schema has parsed it. */
export type ParsedInput<C extends ChannelName> = z.output<Channels[C]['input']>
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>

export type InvokeArgs<C extends ChannelName> =
  undefined extends ChannelInput<C> ? [input?: ChannelInput<C>] : [input: ChannelInput<C>]

export type Invoke = <C extends ChannelName>(
  channel: C,
  ...args: InvokeArgs<C>
) => Promise<Result<ChannelOutput<C>>>

export type Subscribe = <E extends EventName>(
  event: E,
  listener: (payload: EventPayload<E>) => void,
) => () => void

/** What the renderer sees as `window.leadkeeper`, whichever transport carries it. */
export interface Bridge {
  invoke: Invoke
  on: Subscribe
}

export type Handlers = {
  [C in ChannelName]: (input: ParsedInput<C>) => Promise<Result<ChannelOutput<C>>>
}

export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void

/** Both directions: a channel declared here but not listed in channels.ts, or the reverse, does not compile. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
export const channelListsAgree: Same<ChannelName, ChannelNameOf> = true
export const eventListsAgree: Same<EventName, EventNameOf> = true

export const channelNames = Object.keys(channels) as ChannelName[]
export const eventNames = Object.keys(events) as EventName[]

export function isChannelName(value: unknown): value is ChannelName {
  return typeof value === 'string' && Object.hasOwn(channels, value)
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && Object.hasOwn(events, value)
}
