import type { ParsedFilters } from '../filters'
import type { WorkFlags } from '../pricing'
import type { EnrichedRow, LeadSearchRow } from '../rows'
import type { Company, Person } from '../world/types'

/**
 * The records of the sandbox's asynchronous requests, apart from the code that runs them: the job
 * store and the sandbox's context name them without importing that code.
 */

/** Work on a list of leads, one at a time, that pauses when the balance cannot pay for the next one. */
export interface LeadQueueJob {
  id: string
  accountId: string
  status: 'not_started' | 'processing' | 'on_hold' | 'terminated'
  stuck: boolean
  consumedTenths: number
  /** Epoch time of the next scheduled step of work; absolute so that a restored job keeps its pace. */
  nextAt: number
  /** Set once the queue runs: restarts it after an `on_hold`. */
  resume?: () => void
}

export interface EnrichmentJob extends LeadQueueJob {
  status: 'processing' | 'on_hold' | 'terminated'
  leads: unknown[]
  rows: EnrichedRow[]
  /** Indexes of the rows that were later answers about a mover (`movers.ts`), ascending. */
  later: number[]
  flags: WorkFlags
  webhook: string | null
  contactWebhook: string | null
}

export interface LeadSearchJob extends LeadQueueJob {
  filters: ParsedFilters
  limit: number
  offset: number
  maxLeads: number
  flags: WorkFlags
  webhook: string | null
  /** True once the world was searched: `matches` and `total` are known and the leads are being enriched. */
  searched: boolean
  matches: Person[]
  total: number
  rows: LeadSearchRow[]
  /** Indexes of the rows that were later answers about a mover (`movers.ts`), ascending. */
  later: number[]
}

export interface CompanySearchJob {
  id: string
  accountId: string
  status: 'not_started' | 'processing' | 'on_hold' | 'terminated'
  stuck: boolean
  filters: ParsedFilters
  limit: number
  offset: number
  consumedTenths: number
  /** Epoch time the current phase ends; absolute so that a restored search keeps its schedule. */
  nextAt: number
  companiesFound: number
  companies: Company[]
}
