import { leadSearchBounds, prices } from './bounds'

export interface CreditRange {
  min: number
  max: number
}

/** Most leads one lead search can return: `min(limit, max_leads)`, with the service's defaults. */
export function leadSearchSize(limit?: number | null, maxLeads?: number | null): number {
  return Math.min(limit ?? leadSearchBounds.defaultLimit, maxLeads ?? leadSearchBounds.defaultMaxLeads)
}

/** Lead search is free unless it enriches; then each email found costs 1 and each phone found 10. */
export function leadSearchCost(options: {
  email: boolean
  phone: boolean
  limit?: number | null
  maxLeads?: number | null
}): CreditRange {
  const perLead = (options.email ? prices.email : 0) + (options.phone ? prices.phone : 0)
  return { min: 0, max: perLead * leadSearchSize(options.limit, options.maxLeads) }
}

export interface CompanyPage {
  /** 0-based page number counted from offset 0. */
  index: number
  offset: number
  /** Companies this page can return at most. */
  size: number
  /** Most it can cost: every company returned is charged. */
  maxCost: number
}

/** Every page of a search once `companies_found` is known; `limit` stays constant, `offset` grows. */
export function companyPages(
  companiesFound: number,
  limit: number,
  pricePerCompany = prices.companySearchResult,
): CompanyPage[] {
  const pages: CompanyPage[] = []
  for (let offset = 0, index = 0; offset < companiesFound; offset += limit, index++) {
    const size = Math.min(limit, companiesFound - offset)
    pages.push({ index, offset, size, maxCost: size * pricePerCompany })
  }
  return pages
}

export interface PagePlan {
  totalPages: number
  fetched: number
  remaining: CompanyPage[]
  /** The next page not fetched yet, if any. */
  next: CompanyPage | null
}

/** What is left to fetch, given the offsets already fetched. */
export function planPages(
  companiesFound: number,
  limit: number,
  fetchedOffsets: Iterable<number>,
  pricePerCompany = prices.companySearchResult,
): PagePlan {
  const pages = companyPages(companiesFound, limit, pricePerCompany)
  const fetched = new Set(fetchedOffsets)
  const remaining = pages.filter((page) => !fetched.has(page.offset))
  return {
    totalPages: pages.length,
    fetched: pages.length - remaining.length,
    remaining,
    next: remaining[0] ?? null,
  }
}

/** Most the next `count` pages can cost. */
export function costOfNextPages(plan: PagePlan, count: number): number {
  return plan.remaining.slice(0, count).reduce((sum, page) => sum + page.maxCost, 0)
}

/** Before the first answer only `limit` is known: the first page costs at most `limit` companies. */
export function firstPageMaxCost(limit: number, pricePerCompany = prices.companySearchResult): number {
  return limit * pricePerCompany
}

/**
 * The job that fetches the next `count` pages: one job fetches consecutive pages from an offset, so a
 * gap (a page already fetched) ends the run early.
 */
export function nextRun(
  plan: PagePlan,
  limit: number,
  count: number,
): { offset: number; pages: number } | null {
  const first = plan.next
  if (!first) return null
  let pages = 1
  while (pages < count && plan.remaining[pages]?.offset === first.offset + pages * limit) pages++
  return { offset: first.offset, pages }
}
