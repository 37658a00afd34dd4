import type { RouteLocationRaw } from 'vue-router'

/**
 * Where a company, a person, a list row or a search is opened: every place that names one links
 * with these, so their addresses are written once (`src/app/router.ts` declares them).
 */

export function companyPage(domain: string): RouteLocationRaw {
  return { name: 'company', params: { domain: domain.trim().toLowerCase() } }
}

export function personPage(id: string): RouteLocationRaw {
  return { name: 'person', params: { personId: id } }
}

/** A list shown with its company filter on these names (as its rows spell the company). */
export function listOfCompany(listId: string, companies: readonly string[]): RouteLocationRaw {
  return { name: 'list', params: { listId }, query: { company: [...companies] } }
}

/** A list with one of its rows open (`index`: the row's index, shown as index + 1). */
export function listRow(listId: string, index: number): RouteLocationRaw {
  return { name: 'list', params: { listId }, query: { row: String(index) } }
}

export function searchRunPage(kind: 'lead_search' | 'company_search', runId: string): RouteLocationRaw {
  return { name: kind === 'lead_search' ? 'lead-search' : 'company-search', query: { run: runId } }
}
