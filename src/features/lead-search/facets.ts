import emailStatuses from '../../../resources/taxonomies/email_statuses.json'

export type LeadFacet = 'emailStatus' | 'seniority' | 'country' | 'company'
export const leadFacets: readonly LeadFacet[] = ['emailStatus', 'seniority', 'country', 'company']
export const facetTitles: Record<LeadFacet, string> = {
  emailStatus: 'Email status',
  seniority: 'Seniority',
  country: 'Country',
  company: 'Company',
}

export interface EmailStatusInfo {
  value: string
  label: string
  meaning: string
  safeToSend: boolean
}

const statuses = new Map<string, EmailStatusInfo>(emailStatuses.map((status) => [status.value, status]))

/** A status the list does not know is shown as "unknown", never as an error. */
export function emailStatusInfo(value: string): EmailStatusInfo {
  if (value === '')
    return { value, label: 'No status', meaning: 'The service gave no email status.', safeToSend: false }
  return (
    statuses.get(value) ?? {
      value: 'unknown',
      label: 'Unknown',
      meaning: `The service answered "${value}", a status Leadkeeper does not know.`,
      safeToSend: false,
    }
  )
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
