import type { CompanySearchInput, LeadSearchInput } from '@/stores/searches'
import { companySearchBody, leadSearchBody } from '@shared/requests'
import { buildFilters, type FilterDraft } from './filters'
import { companySearchFields, leadSearchFields } from './taxonomies'
import type { CompanyPaging, LeadPaging } from './validate'

export type { CompanySearchInput, LeadSearchInput }

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

export { companySearchBody, leadSearchBody }
