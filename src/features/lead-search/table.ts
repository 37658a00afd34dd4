import type { ColumnMapping } from '@/db/records'

/** Lead search fields that become the columns of a list, in this order. */
const columns = [
  ['First name', 'contact_first_name'],
  ['Last name', 'contact_last_name'],
  ['Full name', 'contact_full_name'],
  ['Job title', 'contact_job_title'],
  ['Seniority', 'contact_seniority'],
  ['Email', 'contact_email_address'],
  ['Email status', 'contact_email_address_status'],
  ['Phone', 'contact_phone_number'],
  ['Country', 'contact_location_country'],
  ['City', 'contact_location_city'],
  ['Profile URL', 'contact_network_profile_url'],
  ['Company', 'company_name'],
  ['Company domain', 'company_domain'],
  ['Company industry', 'company_industry'],
] as const

/** The list's mapping: which of these columns feed the fields the enrichment service understands. */
export const leadListMapping: ColumnMapping = {
  first_name: 0,
  last_name: 1,
  full_name: 2,
  email: 5,
  network_url: 10,
  company_name: 11,
  company_domain: 12,
}

const cell = (value: unknown): string =>
  value === null || value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value)

/** Found leads as a table a list can be made of: headers, string cells, and the mapping. */
export function leadsAsTable(leads: readonly Record<string, unknown>[]): {
  columns: string[]
  rows: string[][]
  mapping: ColumnMapping
} {
  return {
    columns: columns.map(([header]) => header),
    rows: leads.map((lead) => columns.map(([, field]) => cell(lead[field]))),
    mapping: { ...leadListMapping },
  }
}

/**
 * Leads as rows of an existing list: each mapped column of that list gets the matching lead field, the
 * other columns stay empty, so the list's own mapping keeps working.
 */
export function leadsForList(
  leads: readonly Record<string, unknown>[],
  listColumns: readonly string[],
  listMapping: ColumnMapping,
): string[][] {
  const sourceOf: Record<keyof ColumnMapping, string> = {
    first_name: 'contact_first_name',
    last_name: 'contact_last_name',
    full_name: 'contact_full_name',
    company_domain: 'company_domain',
    company_name: 'company_name',
    website: 'company_domain',
    email: 'contact_email_address',
    network_url: 'contact_network_profile_url',
  }
  const fieldAt = new Map<number, string>()
  for (const [target, index] of Object.entries(listMapping) as [keyof ColumnMapping, number | undefined][]) {
    if (index !== undefined) fieldAt.set(index, sourceOf[target])
  }
  return leads.map((lead) => listColumns.map((_, index) => cell(lead[fieldAt.get(index) ?? ''])))
}
