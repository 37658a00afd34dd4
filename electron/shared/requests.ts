import type { SearchOptions } from '../domain/jobs'

/**
 * Search bodies exactly as the service spells them. The engine sends them and the prospecting
 * screens show them before anything is sent, so both are built here, once.
 */
export interface SearchBody {
  filters: Record<string, unknown>
  limit?: number
  offset?: number
  max_leads?: number
  webhook?: string
  enrich_email_address?: boolean
  enrich_phone_number?: boolean
}

type LeadSearch = Pick<
  SearchOptions,
  'filters' | 'limit' | 'offset' | 'maxLeads' | 'email' | 'phone' | 'webhook'
>

/** `POST /lead_finder/async`; absent options stay absent so the service's defaults apply. */
export function leadSearchBody(search: LeadSearch): SearchBody {
  return {
    filters: search.filters,
    ...(search.limit !== undefined ? { limit: search.limit } : {}),
    ...(search.offset !== undefined ? { offset: search.offset } : {}),
    ...(search.maxLeads !== undefined ? { max_leads: search.maxLeads } : {}),
    ...(search.email ? { enrich_email_address: true } : {}),
    ...(search.phone ? { enrich_phone_number: true } : {}),
    ...(search.webhook ? { webhook: search.webhook } : {}),
  }
}

/**
 * `POST /company_finder/async` for page `page` (0-based): `limit` stays the same on every page and
 * `offset` grows by `limit`; a negative offset counts as 0, as the service treats it.
 */
export function companySearchBody(
  search: Pick<SearchOptions, 'filters' | 'limit' | 'offset'>,
  page = 0,
): SearchBody {
  const limit = search.limit ?? 100
  return { filters: search.filters, limit, offset: Math.max(0, search.offset ?? 0) + page * limit }
}
