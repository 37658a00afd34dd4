import type { EnrichmentOptions } from './types'
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

export interface EnrichmentEstimate {
  rows: number
  toSend: number
  known: number
  duplicates: number
  invalid: number
  chunks: number
  minCredits: number
  maxCredits: number
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
