import type { SearchBody } from '../../shared/requests'
import type { ServiceClient } from '../client/client'
import type {
  CompanySearchResult,
  EnrichedLead,
  EnrichmentResult,
  LeadSearchResult,
} from '../../domain/service-shapes'
import type { EngineSettings } from '../settings'
import type { PlannedLead } from './plan'
import { kindsOf, maxCostOf, optionsOf } from '../../domain/kinds'
import { answeredData } from '../../domain/row'
import { maxEnrichmentCost, rowKeyField } from './plan'
import { companyPageCount, nextCompanyPage } from './paging'
import type { PollAnswer } from './poller'
import type { ChunkRecord, JobRecord, ResultRow } from '../../domain/jobs'

export interface TerminatedChunk {
  rows: ResultRow[]
  creditsConsumed: number
  /** Company search: matches reported by the service. */
  totalAvailable?: number
}

/** What a paged kind's answer says of the rest of the search. */
export interface NextPage {
  /** Matches the service reported. */
  totalAvailable: number
  /** Highest charge of the whole search, now that the number of pages is known. */
  estimateMax: number
  /** The page to fetch next, if any: its payload goes to disk before the record names it. */
  page?: { chunk: ChunkRecord; payload: SearchPayload }
}

/** Body of one company search page or of the lead search, as stored in the chunk payload. */
export type SearchPayload = SearchBody

/** What differs between enrichment, lead search and company search; the run loop does the rest. */
export interface KindAdapter {
  /** Company search `on_hold` is final: the page must be submitted again. */
  holdIsFinal: boolean
  /** Pages of a company search depend on the first answer, so they go one at a time. */
  sequential: boolean
  /**
   * The rows are the caller's, known from the start (enrichment): a chunk given up puts a result on
   * each of its rows. Otherwise (searches) the rows are what was found, counted as they arrive.
   */
  callerRows: boolean
  /** Polls are timed by the service's learnt work per lead (enrichment); searches are polled soon. */
  pacedByLeadWork: boolean
  /**
   * Paged kinds (company search): each answer says whether a next page exists, so the next page is
   * planned from it, with what the whole search may now cost; a row an earlier page delivered is not
   * delivered twice. Absent for the other kinds.
   */
  nextPage?(record: JobRecord, page: ChunkRecord, payload: unknown, result: TerminatedChunk): NextPage
  /** Highest charge of a chunk, or null when it cannot be bounded. */
  maxCost(chunk: ChunkRecord): number | null
  /** `beforeSend`: see `CreateOptions`. */
  create(payload: unknown, beforeSend?: () => void): Promise<string>
  get(requestId: string, signal: AbortSignal): Promise<PollAnswer<unknown>>
  /** Turns a terminated answer into result rows; `payload` is what the chunk sent. */
  toResults(payload: unknown, answer: unknown): TerminatedChunk
}

type Prices = EngineSettings['prices']

/** A status outside the known list (the service may add some) is reported as `unknown`, never trusted blindly. */
export function emailStatusOf(value: unknown, known: readonly string[]): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined
  return known.includes(value) ? value : 'unknown'
}

const creditsOf = (value: number | null | undefined): number | undefined =>
  value == null ? undefined : value

function rowRef(row: EnrichedLead): string | undefined {
  return row.custom_fields.find((field) => field.name === rowKeyField)?.value
}

/** Joins a terminated enrichment batch back to its rows by key, never by position, and fans duplicates out. */
export function joinEnrichment(
  planned: PlannedLead[],
  data: EnrichedLead[],
  emailStatuses: readonly string[],
): ResultRow[] {
  const byRef = new Map<string, EnrichedLead>()
  for (const row of data) {
    const ref = rowRef(row)
    if (ref !== undefined && !byRef.has(ref)) byRef.set(ref, row)
  }
  return planned.flatMap((lead) => {
    const row = byRef.get(lead.ref)
    return lead.rowKeys.map((key): ResultRow => {
      const twin = key === lead.ref ? {} : { twinOf: lead.ref }
      if (!row) return { key, status: 'not_returned', note: 'The service did not return this lead.', ...twin }
      const { custom_fields: _echoed, ...fields } = row
      const emailStatus = emailStatusOf(row.contact_email_address_status, emailStatuses)
      return {
        key,
        status: row.enriched ? 'found' : 'not_found',
        data: fields,
        ...(emailStatus ? { emailStatus } : {}),
        ...(lead.kinds ? { kinds: lead.kinds } : {}),
        ...twin,
      }
    })
  })
}

function enrichmentAdapter(client: ServiceClient, record: JobRecord, settings: EngineSettings): KindAdapter {
  const { prices } = settings
  const options = record.enrichment ?? { email: true, phone: false, catchAll: false }
  return {
    holdIsFinal: false,
    sequential: false,
    callerRows: true,
    pacedByLeadWork: true,
    maxCost: (chunk) =>
      chunk.kinds
        ? chunk.size * maxCostOf(chunk.kinds, prices)
        : maxEnrichmentCost(chunk.size, options, prices),
    create: async (payload, beforeSend) => {
      const leads = payload as PlannedLead[]
      // Every lead of a chunk asks the same; chunks planned before kinds existed ask the job's options.
      const asked = optionsOf(leads[0]?.kinds ?? kindsOf(options))
      const { requestId } = await client.createEnrichment(
        {
          data: leads.map((lead) => ({ ...lead.lead, custom_fields: { [rowKeyField]: lead.ref } })),
          enrich_email_address: asked.email,
          enrich_phone_number: asked.phone,
          verify_catch_all: asked.catchAll,
          ...(options.webhook ? { webhook: options.webhook } : {}),
          // Per-lead pushes are not retried by the service, so the whole-batch webhook goes with them.
          ...(options.contactWebhook
            ? { contact_webhook: options.contactWebhook, push_contact_individually: true }
            : {}),
        },
        { beforeSend },
      )
      return requestId
    },
    get: async (requestId, signal) => {
      const answer = await client.getEnrichment(requestId, signal)
      return { status: answer.status, creditsLeft: creditsOf(answer.credits_left), value: answer }
    },
    toResults: (payload, answer) => {
      const result = answer as Extract<EnrichmentResult, { status: 'terminated' }>
      return {
        rows: joinEnrichment(
          (payload as PlannedLead[]).map((lead) =>
            lead.kinds ? lead : { ...lead, kinds: kindsOf(options) },
          ),
          result.data,
          settings.emailStatuses,
        ),
        creditsConsumed: creditsOf(result.credits_consumed) ?? 0,
      }
    },
  }
}

function leadSearchAdapter(client: ServiceClient, record: JobRecord, settings: EngineSettings): KindAdapter {
  const { prices } = settings
  // Lead search is charged only for the emails and phones it is asked to find.
  const perLead = maxEnrichmentCost(
    1,
    { email: !!record.search?.email, phone: !!record.search?.phone },
    prices,
  )
  // A search that did not ask for emails (or phones) looked none up: its "not_found" statuses say nothing.
  const asked = kindsOf({ email: !!record.search?.email, phone: !!record.search?.phone, catchAll: false })
  return {
    holdIsFinal: false,
    sequential: true,
    callerRows: false,
    pacedByLeadWork: false,
    maxCost: (chunk) => (perLead === 0 ? 0 : chunk.size > 0 ? chunk.size * perLead : null),
    create: async (payload, beforeSend) =>
      (await client.createLeadSearch(payload as SearchPayload, { beforeSend })).requestId,
    get: async (requestId, signal) => {
      const answer = await client.getLeadSearch(requestId, signal)
      return { status: answer.status, creditsLeft: creditsOf(answer.credits_left), value: answer }
    },
    toResults: (payload, answer) => {
      const result = answer as Extract<LeadSearchResult, { status: 'terminated' }>
      const offset = (payload as SearchPayload).offset ?? 0
      return {
        rows: result.leads.map((lead, index) => {
          const { custom_fields: _unused, ...fields } = answeredData(lead, asked)
          const emailStatus = emailStatusOf(fields['contact_email_address_status'], settings.emailStatuses)
          return {
            key: lead.contact_id != null ? `contact-${lead.contact_id}` : `lead-${offset + index}`,
            status: 'found' as const,
            data: fields,
            ...(emailStatus ? { emailStatus } : {}),
          }
        }),
        creditsConsumed: creditsOf(result.credits_consumed) ?? 0,
      }
    },
  }
}

function companySearchAdapter(client: ServiceClient, prices: Prices): KindAdapter {
  return {
    holdIsFinal: true,
    sequential: true,
    callerRows: false,
    pacedByLeadWork: false,
    maxCost: (chunk) => chunk.size * prices.companySearchResult,
    nextPage: (record, page, payload, result) => {
      const found = result.totalAvailable ?? 0
      const body = payload as SearchPayload
      return {
        totalAvailable: found,
        estimateMax:
          companyPageCount(record.search, found) * (body.limit ?? 100) * prices.companySearchResult,
        page: nextCompanyPage(record, page, body, result.rows.length, found),
      }
    },
    create: async (payload, beforeSend) =>
      (await client.createCompanySearch(payload as SearchPayload, { beforeSend })).requestId,
    get: async (requestId, signal) => {
      const answer = await client.getCompanySearch(requestId, signal)
      return { status: answer.status, creditsLeft: creditsOf(answer.credits_left), value: answer }
    },
    toResults: (_payload, answer) => {
      const result = answer as Extract<CompanySearchResult, { status: 'terminated' }>
      return {
        rows: result.companies.map((company) => ({
          key: companyKey(company),
          status: 'found',
          data: company,
        })),
        creditsConsumed: creditsOf(result.credits_consumed) ?? 0,
        totalAvailable: result.summary.companies_found,
      }
    },
  }
}

function companyKey(company: Record<string, unknown>): string {
  if (company.company_id != null) return `company-${String(company.company_id)}`
  if (typeof company.company_domain === 'string' && company.company_domain)
    return `domain-${company.company_domain}`
  return `name-${String(company.company_name ?? '')}`
}

export function adapterFor(client: ServiceClient, record: JobRecord, settings: EngineSettings): KindAdapter {
  switch (record.kind) {
    case 'enrichment':
      return enrichmentAdapter(client, record, settings)
    case 'lead_search':
      return leadSearchAdapter(client, record, settings)
    case 'company_search':
      return companySearchAdapter(client, settings.prices)
  }
}
