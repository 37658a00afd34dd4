import { clean, normalizeDomain } from '../../shared/normalize'

export { normalizeDomain }
/** Input row of an enrichment job. `key` is the caller's stable id of the row. */
export interface EnrichmentRow {
  key: string
  first_name?: string
  last_name?: string
  full_name?: string
  company_domain?: string
  company_name?: string
  /** A website or email address also yields the company domain when `company_domain` is empty. */
  website?: string
  email?: string
  network_url?: string
  /** Rows the caller already has results for are not sent at all. */
  known?: boolean
}

/** A lead as the service receives it, minus `custom_fields`. */
export interface NormalizedLead {
  first_name?: string
  last_name?: string
  company_domain?: string
  network_url?: string
}

export function normalizeNetworkUrl(value: string | undefined): string {
  const url = clean(value)
  if (!url) return ''
  const bare = url
    .replace(/^https?:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
  return `https://www.${bare}`
}

/**
 * What the service gets for a row. The interface shows only first name, last name and company
 * domain for a lead; a full name is split when the parts are missing, the domain falls back to the
 * website then the email address, and a network profile URL is passed along when present.
 * Returns undefined when the row cannot identify anyone (no name + domain and no profile URL).
 */
export function normalizeRow(row: EnrichmentRow): NormalizedLead | undefined {
  let first = clean(row.first_name)
  let last = clean(row.last_name)
  const full = clean(row.full_name)
  if ((!first || !last) && full) {
    const parts = full.split(' ')
    if (!first && !last) {
      first = parts[0] ?? ''
      last = parts.slice(1).join(' ')
    } else if (!last) {
      last = full.toLowerCase().startsWith(first.toLowerCase() + ' ') ? full.slice(first.length + 1) : ''
    } else if (!first) {
      first = parts[0] ?? ''
    }
  }
  const domain =
    normalizeDomain(row.company_domain) || normalizeDomain(row.website) || normalizeDomain(row.email)
  const networkUrl = normalizeNetworkUrl(row.network_url)
  const lead: NormalizedLead = {}
  if (first) lead.first_name = first
  if (last) lead.last_name = last
  if (domain) lead.company_domain = domain
  if (networkUrl) lead.network_url = networkUrl
  const identified = (first && last && domain) || networkUrl
  return identified ? lead : undefined
}

/** Two rows with the same identity are the same person: case and spacing do not matter. */
export function identityOf(lead: NormalizedLead): string {
  if (lead.network_url) return `url:${lead.network_url.toLowerCase()}`
  return ['name', lead.first_name, lead.last_name, lead.company_domain]
    .map((part) => (part ?? '').toLowerCase())
    .join('|')
}
