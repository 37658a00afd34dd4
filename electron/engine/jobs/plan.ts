import type { EnrichmentEstimate, EnrichmentOptions, SearchOptions } from './types'

export type { EnrichmentEstimate }
import type { EngineSettings } from '../settings'
import type { EnrichmentRow, NormalizedLead } from './normalize'
import { identityOf, normalizeRow } from './normalize'

/** Name of the custom field that carries the row key to the service and back. */
export const rowKeyField = 'leadkeeper_row_key'

export interface PlannedLead {
  /** Key of the first row with this identity; travels in `custom_fields`. */
  ref: string
  lead: NormalizedLead
  /** Every row key that receives this lead's result. */
  rowKeys: string[]
}

export interface EnrichmentPlan {
  chunks: PlannedLead[][]
  knownKeys: string[]
  invalidKeys: string[]
  duplicates: number
  rows: number
  unique: number
}

export function planEnrichment(rows: readonly EnrichmentRow[], chunkSize: number): EnrichmentPlan {
  const seenKeys = new Set<string>()
  const byIdentity = new Map<string, PlannedLead>()
  const knownKeys: string[] = []
  const invalidKeys: string[] = []
  let duplicates = 0
  for (const row of rows) {
    if (seenKeys.has(row.key)) throw new Error(`Duplicate row key: ${row.key}`)
    seenKeys.add(row.key)
    if (row.known) {
      knownKeys.push(row.key)
      continue
    }
    const lead = normalizeRow(row)
    if (!lead) {
      invalidKeys.push(row.key)
      continue
    }
    const identity = identityOf(lead)
    const existing = byIdentity.get(identity)
    if (existing) {
      existing.rowKeys.push(row.key)
      duplicates++
    } else {
      byIdentity.set(identity, { ref: row.key, lead, rowKeys: [row.key] })
    }
  }
  const unique = [...byIdentity.values()]
  const size = Math.max(1, Math.min(100, Math.floor(chunkSize)))
  const chunks: PlannedLead[][] = []
  for (let start = 0; start < unique.length; start += size) chunks.push(unique.slice(start, start + size))
  return { chunks, knownKeys, invalidKeys, duplicates, rows: rows.length, unique: unique.length }
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
  options: Pick<EnrichmentOptions, 'email' | 'phone'>,
  settings: Pick<EngineSettings, 'chunkSize' | 'prices'>,
): EnrichmentEstimate {
  const plan = planEnrichment(rows, settings.chunkSize)
  return {
    rows: plan.rows,
    toSend: plan.unique,
    known: plan.knownKeys.length,
    duplicates: plan.duplicates,
    invalid: plan.invalidKeys.length,
    chunks: plan.chunks.length,
    minCredits: 0,
    maxCredits: maxEnrichmentCost(plan.unique, options, settings.prices),
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
