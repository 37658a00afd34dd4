import { kindsOf, kindsSignature, maxCostOf, type DataKind } from '../../domain/kinds'
import type { EnrichmentEstimate, EnrichmentOptions, SearchOptions } from '../../domain/jobs'

export type { EnrichmentEstimate }
import type { EngineSettings } from '../settings'
import type { EnrichmentRow, NormalizedLead } from './normalize'
import { planLeadOf } from './normalize'

/** Name of the custom field that carries the row key to the service and back. */
export const rowKeyField = 'leadkeeper_row_key'

export interface PlannedLead {
  /** Key of the first row with this identity; travels in `custom_fields`. */
  ref: string
  lead: NormalizedLead
  /** Every row key that receives this lead's result. */
  rowKeys: string[]
  /** What the service is asked for this lead; every lead of a chunk asks the same. */
  kinds?: DataKind[]
}

export interface EnrichmentPlan {
  chunks: PlannedLead[][]
  knownKeys: string[]
  invalidKeys: string[]
  duplicates: number
  rows: number
  unique: number
}

/**
 * Groups the rows by person (the import's rule: one lead however many rows name them) and by what
 * is asked, then cuts each group into requests of at most `chunkSize` leads. `options` are what a
 * row without kinds of its own asks for.
 */
export function planEnrichment(
  rows: readonly EnrichmentRow[],
  chunkSize: number,
  options: Pick<EnrichmentOptions, 'email' | 'phone' | 'catchAll'> = {
    email: true,
    phone: false,
    catchAll: false,
  },
): EnrichmentPlan {
  const seenKeys = new Set<string>()
  const byIdentity = new Map<string, PlannedLead>()
  const knownKeys: string[] = []
  const invalidKeys: string[] = []
  const defaultKinds = kindsOf(options)
  let duplicates = 0
  for (const row of rows) {
    if (seenKeys.has(row.key)) throw new Error(`Duplicate row key: ${row.key}`)
    seenKeys.add(row.key)
    if (row.known) {
      knownKeys.push(row.key)
      continue
    }
    const { lead, identity } = planLeadOf(row)
    if (!lead) {
      invalidKeys.push(row.key)
      continue
    }
    const kinds = row.kinds ?? defaultKinds
    const existing = byIdentity.get(identity)
    if (existing) {
      existing.rowKeys.push(row.key)
      // One person is asked once, for everything any of their rows needs.
      existing.kinds = kindsOf({
        email: existing.kinds!.includes('email') || kinds.includes('email'),
        phone: existing.kinds!.includes('phone') || kinds.includes('phone'),
        catchAll: existing.kinds!.includes('catchAll') || kinds.includes('catchAll'),
      })
      duplicates++
    } else {
      byIdentity.set(identity, { ref: row.key, lead, rowKeys: [row.key], kinds: [...kinds] })
    }
  }
  const unique = [...byIdentity.values()]
  const size = Math.max(1, Math.min(100, Math.floor(chunkSize)))
  const byKinds = new Map<string, PlannedLead[]>()
  for (const lead of unique) {
    const signature = kindsSignature(lead.kinds!)
    const group = byKinds.get(signature)
    if (group) group.push(lead)
    else byKinds.set(signature, [lead])
  }
  const chunks: PlannedLead[][] = []
  for (const group of byKinds.values())
    for (let start = 0; start < group.length; start += size) chunks.push(group.slice(start, start + size))
  return { chunks, knownKeys, invalidKeys, duplicates, rows: rows.length, unique: unique.length }
}

/** The highest charge of planned leads if everything asked of them is found. */
export function maxPlanCost(leads: readonly PlannedLead[], prices: EngineSettings['prices']): number {
  return leads.reduce((sum, lead) => sum + maxCostOf(lead.kinds ?? ['email'], prices), 0)
}

/** Highest charge for `leads` leads if every email and phone is found; the lowest is always 0. */
export function maxEnrichmentCost(
  leads: number,
  options: Pick<EnrichmentOptions, 'email' | 'phone'>,
  prices: EngineSettings['prices'],
): number {
  return leads * ((options.email ? prices.email : 0) + (options.phone ? prices.phone : 0))
}

export function estimateEnrichment(
  rows: readonly EnrichmentRow[],
  options: Pick<EnrichmentOptions, 'email' | 'phone'> & { catchAll?: boolean },
  settings: Pick<EngineSettings, 'chunkSize' | 'prices'>,
): EnrichmentEstimate {
  const plan = planEnrichment(rows, settings.chunkSize, { catchAll: false, ...options })
  const leads = plan.chunks.flat()
  const people = (kind: DataKind) => leads.filter((lead) => lead.kinds?.includes(kind)).length
  return {
    rows: plan.rows,
    toSend: plan.unique,
    known: plan.knownKeys.length,
    duplicates: plan.duplicates,
    invalid: plan.invalidKeys.length,
    chunks: plan.chunks.length,
    minCredits: 0,
    maxCredits: maxPlanCost(leads, settings.prices),
    byKind: { email: people('email'), phone: people('phone'), catchAll: people('catchAll') },
  }
}

export interface SearchEstimate {
  /** Charged requests the search will send, or null when it depends on the first answer (`--all`). */
  requests: number | null
  minCredits: number
  /** Null when the search is unbounded (no `limit`/`max_leads`, or every page). */
  maxCredits: number | null
}

/** A lead search is charged only for the emails and phones it is asked to find, at most one of each per lead. */
export function estimateLeadSearch(
  search: Pick<SearchOptions, 'limit' | 'maxLeads' | 'email' | 'phone'>,
  prices: EngineSettings['prices'],
): SearchEstimate {
  const perLead = maxEnrichmentCost(1, { email: !!search.email, phone: !!search.phone }, prices)
  const leads = search.maxLeads ?? search.limit
  return {
    requests: 1,
    minCredits: 0,
    maxCredits: perLead === 0 ? 0 : leads === undefined ? null : leads * perLead,
  }
}

/** Every page is a charged request of `limit` companies at most. */
export function estimateCompanySearch(
  search: Pick<SearchOptions, 'limit' | 'pages'>,
  prices: EngineSettings['prices'],
): SearchEstimate {
  const limit = search.limit ?? 100
  if (search.pages === undefined) return { requests: null, minCredits: 0, maxCredits: null }
  return {
    requests: search.pages,
    minCredits: 0,
    maxCredits: search.pages * limit * prices.companySearchResult,
  }
}
