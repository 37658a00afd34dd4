import type { SearchBody } from '../../shared/requests'
import type { z } from 'zod'
import type { Clock } from './clock'
import { systemClock } from './clock'
import { ServiceError } from './errors'
import type { RateGovernor } from './governor'
import { governorFor } from './governor'
import type { HttpOutcome } from './http'
import { Reach } from './reach'
import { errorFromAnswer, sendOnce } from './http'
import { backoffDelay } from './retry'
import {
  accountSchema,
  companyProfileSchema,
  companySearchResultSchema,
  describeIssues,
  enrichmentCreatedSchema,
  enrichmentResultSchema,
  leadProfileSchema,
  leadSearchResultSchema,
  profileResponseSchema,
  searchCreatedSchema,
} from '../../domain/service-shapes'
import type {
  Account,
  CompanyProfile,
  CompanySearchResult,
  EnrichmentResult,
  LeadProfile,
  LeadSearchResult,
} from '../../domain/service-shapes'
import type { EngineSettings, SettingsOverrides } from '../settings'
import { resolveSettings } from '../settings'

/**
 * How a request may be repeated:
 * - `read`: GETs and the free company lookup; retried on 429, 5xx and network failures.
 * - `create`: POSTs that create a charged request, and the charged lead lookup; retried only when
 *   the answer proves nothing happened (429, or a connection that was never established). A 5xx,
 *   time-out or dropped connection has an unknown outcome and is reported as `outcome_unknown`.
 */
type RetryPolicy = 'read' | 'create'

export interface EnrichmentLead {
  first_name?: string
  last_name?: string
  full_name?: string
  company_domain?: string
  company_name?: string
  network_url?: string
  custom_fields?: Record<string, string>
  [field: string]: unknown
}

export interface CreateEnrichmentBody {
  data: EnrichmentLead[]
  webhook?: string
  contact_webhook?: string
  push_contact_individually?: boolean
  enrich_email_address?: boolean
  enrich_phone_number?: boolean
  verify_catch_all?: boolean
}

export type Filters = Record<string, unknown>

export type CreateLeadSearchBody = SearchBody

export type CreateCompanySearchBody = Pick<SearchBody, 'filters' | 'limit' | 'offset'>

export type CompanyLookup = { company_domain?: string; company_network_url?: string }
export type LeadLookup =
  | { network_url: string }
  | { first_name: string; last_name: string; company_domain: string; company?: string }

/** Options of a charged create. */
export interface CreateOptions {
  /**
   * Stops the call while it waits (for a rate slot, or before another attempt), never while an
   * attempt travels: a create cut mid-flight could have been received and charged.
   */
  signal?: AbortSignal
  /**
   * Called when the request has its rate slot, just before its first attempt goes out; throwing
   * stops it there, with nothing sent. A job writes its next intent from here on, while this one travels.
   */
  beforeSend?: () => void
}

export interface ServiceClient {
  readonly baseUrl: string
  readonly governor: RateGovernor
  readonly settings: EngineSettings
  /** Whether the service answers, learnt from every attempt of this client. */
  readonly reach: Reach
  account(signal?: AbortSignal): Promise<Account>
  createEnrichment(body: CreateEnrichmentBody, options?: CreateOptions): Promise<{ requestId: string }>
  getEnrichment(requestId: string, signal?: AbortSignal): Promise<EnrichmentResult>
  createLeadSearch(body: CreateLeadSearchBody, options?: CreateOptions): Promise<{ requestId: string }>
  getLeadSearch(requestId: string, signal?: AbortSignal): Promise<LeadSearchResult>
  createCompanySearch(body: CreateCompanySearchBody, options?: CreateOptions): Promise<{ requestId: string }>
  getCompanySearch(requestId: string, signal?: AbortSignal): Promise<CompanySearchResult>
  companyProfile(lookup: CompanyLookup, signal?: AbortSignal): Promise<CompanyProfile>
  leadProfile(lookup: LeadLookup, options?: Pick<CreateOptions, 'signal'>): Promise<LeadProfile>
}

export interface ServiceClientOptions {
  baseUrl: string
  apiKey: string
  settings?: SettingsOverrides | EngineSettings
  /** Defaults to the process-wide governor of this key, shared with every other client of it. */
  governor?: RateGovernor
  clock?: Clock
  random?: () => number
  /** Called after every HTTP attempt; the CLI counts requests with it. */
  onAttempt?: (endpoint: string, outcome: HttpOutcome) => void
  /** Shared with the host, which shows it (the app's header) and probes while it is unreachable. */
  reach?: Reach
}

interface CallSpec<S extends z.ZodType> {
  method: 'GET' | 'POST'
  path: string
  /** Label used in messages, e.g. `GET /async/:id`. */
  endpoint: string
  body?: unknown
  policy: RetryPolicy
  schema: S
  rateLimited?: boolean
  /** Stops the call anywhere, an attempt in flight included (reads only). */
  signal?: AbortSignal
  /** Stops the call only while it waits between attempts or for a rate slot. */
  waitSignal?: AbortSignal
  beforeSend?: () => void
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const settings = resolveSettings(options.settings)
  const clock = options.clock ?? systemClock
  const random = options.random ?? Math.random
  const reach = options.reach ?? new Reach(() => clock.now())
  const governor =
    options.governor ??
    governorFor(options.baseUrl, options.apiKey, {
      ceiling: settings.rateLimitPerMinute,
      floor: settings.rateLimitFloorPerMinute,
      windowMs: settings.rateWindowMs,
      clock,
    })

  async function call<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>> {
    const limited = spec.rateLimited ?? true
    const waitSignal = spec.signal ?? spec.waitSignal
    /** A wait the caller stopped ends the call as `cancelled`, whatever the signal's reason. */
    const waiting = async <T>(work: Promise<T>): Promise<T> => {
      try {
        return await work
      } catch (error) {
        if (waitSignal?.aborted) {
          throw new ServiceError({
            code: 'cancelled',
            endpoint: spec.endpoint,
            message: 'The request was cancelled.',
          })
        }
        throw error
      }
    }
    let lastError: ServiceError | undefined
    for (let attempt = 0; attempt < settings.maxAttempts; attempt++) {
      if (attempt > 0) {
        const delay = backoffDelay(attempt - 1, {
          baseMs: settings.retryBaseDelayMs,
          capMs: settings.retryMaxDelayMs,
          random,
        })
        if (lastError?.code === 'network' || lastError?.code === 'timeout') reach.retrying(delay)
        await waiting(clock.sleep(delay, waitSignal))
      }
      let ticket: number | undefined
      if (limited) ticket = await waiting(governor.acquire(waitSignal))
      else governor.assertUsable()
      if (waitSignal?.aborted) await waiting(Promise.reject(waitSignal.reason))
      if (attempt === 0) spec.beforeSend?.()
      const outcome = await sendOnce(options.baseUrl, options.apiKey, {
        method: spec.method,
        path: spec.path,
        body: spec.body,
        timeoutMs: settings.requestTimeoutMs,
        signal: spec.signal,
      })
      options.onAttempt?.(spec.endpoint, outcome)
      if (outcome.kind === 'failure') reach.failed(`${spec.endpoint}: ${outcome.message}`)
      else reach.answered(outcome.status, outcome.message)

      if (outcome.kind === 'failure') {
        if (spec.policy === 'create' && outcome.maybeReceived) {
          throw unknownOutcome(spec.endpoint, outcome.message, outcome.cause)
        }
        lastError = new ServiceError({
          code: outcome.code,
          endpoint: spec.endpoint,
          message: `${spec.endpoint}: ${outcome.message}`,
          cause: outcome.cause,
        })
        continue
      }
      if (outcome.status === 429) {
        if (limited) governor.onRateLimited(ticket)
        lastError = errorFromAnswer(429, outcome.message, spec.endpoint)
        continue
      }
      if (outcome.status >= 500) {
        if (spec.policy === 'create') {
          throw unknownOutcome(spec.endpoint, `HTTP ${outcome.status} ${outcome.message}`.trim())
        }
        lastError = errorFromAnswer(outcome.status, outcome.message, spec.endpoint)
        continue
      }
      if (outcome.status >= 300 && outcome.status < 400) {
        // A redirect that was not followed: the request reached no one who could act on it.
        throw new ServiceError({
          code: 'invalid_response',
          status: outcome.status,
          endpoint: spec.endpoint,
          message: `${spec.endpoint}: ${outcome.message}`,
        })
      }
      if (outcome.status >= 400) {
        const error = errorFromAnswer(outcome.status, outcome.message, spec.endpoint)
        if (error.code === 'auth') governor.onUnauthorized(error)
        throw error
      }
      if (limited) governor.onSuccess()
      const parsed = spec.schema.safeParse(outcome.body)
      if (!parsed.success) {
        // A success status on a create means it probably exists, even if the body cannot be read.
        if (spec.policy === 'create') {
          throw unknownOutcome(spec.endpoint, `unreadable answer (${describeIssues(parsed.error)})`)
        }
        throw new ServiceError({
          code: 'invalid_response',
          status: outcome.status,
          endpoint: spec.endpoint,
          message: `Unexpected answer from ${spec.endpoint}: ${describeIssues(parsed.error)}`,
        })
      }
      return parsed.data
    }
    throw new ServiceError({
      code: lastError?.code ?? 'server',
      status: lastError?.status,
      endpoint: spec.endpoint,
      attempts: settings.maxAttempts,
      message: `${spec.endpoint} failed ${settings.maxAttempts} times, giving up: ${lastError?.message ?? 'no answer'}`,
      cause: lastError,
    })
  }

  const id = (value: string): string => encodeURIComponent(value)

  return {
    baseUrl: options.baseUrl,
    governor,
    settings,
    reach,
    account: (signal) =>
      call({
        method: 'GET',
        path: '/account',
        endpoint: 'GET /account',
        policy: 'read',
        schema: accountSchema,
        rateLimited: false,
        signal,
      }),
    createEnrichment: async (body, createOptions) => {
      const created = await call({
        method: 'POST',
        path: '/async',
        endpoint: 'POST /async',
        body,
        policy: 'create',
        schema: enrichmentCreatedSchema,
        beforeSend: createOptions?.beforeSend,
        waitSignal: createOptions?.signal,
      })
      return { requestId: created.id }
    },
    getEnrichment: (requestId, signal) =>
      call({
        method: 'GET',
        path: `/async/${id(requestId)}`,
        endpoint: 'GET /async/:id',
        policy: 'read',
        schema: enrichmentResultSchema,
        signal,
      }),
    createLeadSearch: async (body, createOptions) => {
      const created = await call({
        method: 'POST',
        path: '/lead_finder/async',
        endpoint: 'POST /lead_finder/async',
        body,
        policy: 'create',
        schema: searchCreatedSchema,
        beforeSend: createOptions?.beforeSend,
        waitSignal: createOptions?.signal,
      })
      return { requestId: created.request_id }
    },
    getLeadSearch: (requestId, signal) =>
      call({
        method: 'GET',
        path: `/lead_finder/async/${id(requestId)}`,
        endpoint: 'GET /lead_finder/async/:id',
        policy: 'read',
        schema: leadSearchResultSchema,
        signal,
      }),
    createCompanySearch: async (body, createOptions) => {
      const created = await call({
        method: 'POST',
        path: '/company_finder/async',
        endpoint: 'POST /company_finder/async',
        body,
        policy: 'create',
        schema: searchCreatedSchema,
        beforeSend: createOptions?.beforeSend,
        waitSignal: createOptions?.signal,
      })
      return { requestId: created.request_id }
    },
    getCompanySearch: (requestId, signal) =>
      call({
        method: 'GET',
        path: `/company_finder/async/${id(requestId)}`,
        endpoint: 'GET /company_finder/async/:id',
        policy: 'read',
        schema: companySearchResultSchema,
        signal,
      }),
    // Free of charge, so repeating it after a 500 or a dropped connection costs nothing.
    companyProfile: async (lookup, signal) =>
      (
        await call({
          method: 'POST',
          path: '/enrich_profile/company',
          endpoint: 'POST /enrich_profile/company',
          body: lookup,
          policy: 'read',
          schema: profileResponseSchema(companyProfileSchema),
          signal,
        })
      ).data,
    // Charged (0.1 credit when found), so an unknown outcome is reported, never silently repeated.
    leadProfile: async (lookup, createOptions) =>
      (
        await call({
          method: 'POST',
          path: '/enrich_profile/lead',
          endpoint: 'POST /enrich_profile/lead',
          body: lookup,
          policy: 'create',
          schema: profileResponseSchema(leadProfileSchema),
          waitSignal: createOptions?.signal,
        })
      ).data,
  }
}

function unknownOutcome(endpoint: string, reason: string, cause?: unknown): ServiceError {
  return new ServiceError({
    code: 'outcome_unknown',
    endpoint,
    message:
      `${endpoint}: ${reason}. The service may or may not have accepted it, so it was not sent again ` +
      '(a second submission could be charged twice). Check the balance before resubmitting.',
    cause,
  })
}
