import type { ChannelInput } from '@shared/contract'
import { buildFilters, type FilterDraft } from './filters'
import { companySearchFields, leadSearchFields } from './taxonomies'
import type { CompanyPaging, LeadPaging } from './validate'

export type LeadSearchInput = ChannelInput<'jobs/startLeadSearch'>['search']
export type CompanySearchInput = ChannelInput<'jobs/startCompanySearch'>['search']

export interface LeadSearchOptions extends LeadPaging {
  email: boolean
  phone: boolean
}

const present = (value: number | null | undefined): value is number => value !== null && value !== undefined

/** The lead search as the backend takes it; absent options stay absent so the service's defaults apply. */
export function leadSearchInput(draft: FilterDraft, options: LeadSearchOptions): LeadSearchInput {
  const webhook = options.webhook?.trim()
  return {
    filters: buildFilters(leadSearchFields, draft, 'lead'),
    ...(present(options.limit) ? { limit: options.limit } : {}),
    ...(present(options.offset) ? { offset: options.offset } : {}),
    ...(present(options.maxLeads) ? { maxLeads: options.maxLeads } : {}),
    ...(options.email ? { email: true } : {}),
    ...(options.phone ? { phone: true } : {}),
    ...(webhook ? { webhook } : {}),
  }
}

/** The body of `POST /lead_finder/async` this search becomes, field names as the service spells them. */
export function leadSearchBody(search: LeadSearchInput): Record<string, unknown> {
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

export interface CompanySearchOptions extends CompanyPaging {
  /** Pages to fetch from `offset`; absent fetches every page. */
  pages?: number | null
}

export function companySearchInput(draft: FilterDraft, options: CompanySearchOptions): CompanySearchInput {
  return {
    filters: buildFilters(companySearchFields, draft, 'company'),
    ...(present(options.limit) ? { limit: options.limit } : {}),
    ...(present(options.offset) ? { offset: options.offset } : {}),
    ...(present(options.pages) ? { pages: options.pages } : {}),
  }
}

/**
 * The body of `POST /company_finder/async` for page `page` (0-based) of the search: `limit` stays the
 * same on every page and `offset` grows by `limit`.
 */
export function companySearchBody(search: CompanySearchInput, page = 0): Record<string, unknown> {
  const limit = search.limit ?? 100
  return { filters: search.filters, limit, offset: (search.offset ?? 0) + page * limit }
}
