import { emailStatusInfo } from '@domain/email-status'

export { emailStatusInfo }

export type LeadFacet = 'emailStatus' | 'seniority' | 'country' | 'company'
export const leadFacets: readonly LeadFacet[] = ['emailStatus', 'seniority', 'country', 'company']
export const facetTitles: Record<LeadFacet, string> = {
  emailStatus: 'Email status',
  seniority: 'Seniority',
  country: 'Country',
  company: 'Company',
}

const text = (value: unknown) => (typeof value === 'string' ? value : '')

export function facetOf(lead: Record<string, unknown>, facet: LeadFacet): string {
  switch (facet) {
    case 'emailStatus': {
      const status = text(lead['contact_email_address_status'])
      return status === '' ? '' : emailStatusInfo(status).value
    }
    case 'seniority':
      return text(lead['contact_seniority'])
    case 'country':
      return text(lead['contact_location_country'])
    case 'company':
      return text(lead['company_name'])
  }
}

export interface FacetCount {
  value: string
  count: number
}

/** Values of one facet with how many leads have each, most frequent first, then by name. */
export function facetCounts(leads: readonly Record<string, unknown>[], facet: LeadFacet): FacetCount[] {
  const counts = new Map<string, number>()
  for (const lead of leads) {
    const value = facetOf(lead, facet)
    counts.set(value, (counts.get(value) ?? 0) + 1)
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
}

export type FacetSelection = Partial<Record<LeadFacet, string[]>>

/** Leads that have one of the chosen values in every facet where something is chosen. */
export function filterLeads<T extends Record<string, unknown>>(
  leads: readonly T[],
  selection: FacetSelection,
): T[] {
  const active = leadFacets.filter((facet) => (selection[facet]?.length ?? 0) > 0)
  if (active.length === 0) return [...leads]
  return leads.filter((lead) => active.every((facet) => selection[facet]!.includes(facetOf(lead, facet))))
}

/**
 * Leads as the run asked for them: without email enrichment the service still sends a status
 * ("not_found"), which says nothing since nothing was looked up. It is cleared, so the results, their
 * filters and a list made of them show no status rather than a false "Not found".
 */
export function asAsked<T extends Record<string, unknown>>(
  leads: readonly T[],
  emailRequested: boolean,
): T[] {
  if (emailRequested) return [...leads]
  return leads.map((lead) =>
    lead['contact_email_address_status'] ? { ...lead, contact_email_address_status: '' } : lead,
  )
}
