import { originsText, type ListRow } from '../row'

/** One column of a list's grid and exports: an input cell or a field of the service's row. */
export interface ResultColumn {
  key: string
  title: string
  kind: 'input' | 'enriched' | 'status'
  value: (row: ListRow) => string
  /** An input column's place in the row's values. */
  input?: number
  /** An enrichment column's field of the service's row. */
  field?: string
  /** The row facet this column sorts by, when it has an index. */
  facet?: 'emailStatus' | 'seniority' | 'country' | 'company' | 'status'
  width: number
}

/** Arrays (keywords) read as a comma list; null and absent read as an empty cell. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.map(cellText).join(', ')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** An input cell of a row: what was imported, empty where the row had fewer cells. */
export const inputText = (row: ListRow, at: number): string => row.values[at] ?? ''

/** A field of the service's row as a cell. */
export function resultText(row: ListRow, field: string): string {
  const found = row.result?.[field]
  return typeof found === 'string' ? found : cellText(found)
}

const enriched: [key: string, title: string, width: number, facet?: ResultColumn['facet']][] = [
  ['contact_email_address', 'Email', 240],
  ['contact_email_address_status', 'Email status', 200, 'emailStatus'],
  ['contact_phone_number', 'Phone', 150],
  ['contact_full_name', 'Full name', 180],
  ['contact_job_title', 'Job title', 200],
  ['contact_seniority', 'Seniority', 120, 'seniority'],
  ['company_name', 'Company', 180, 'company'],
  ['company_domain', 'Company domain', 160],
  ['contact_location_country', 'Country', 140, 'country'],
  ['contact_location_state', 'State', 130],
  ['contact_location_city', 'City', 130],
  ['contact_network_profile_url', 'Network URL', 240],
  ['contact_industry', 'Industry', 160],
  ['company_industry', 'Company industry', 160],
  ['company_network_url', 'Company network URL', 240],
  ['company_employees_range_start', 'Employees from', 120],
  ['company_employees_range_end', 'Employees to', 120],
  ['company_headquarters_country', 'Company country', 140],
  ['contact_email_address_provider', 'Email provider', 140],
]

const knownTitles = new Map(enriched.map(([key, title]) => [key, title]))
const titlesTaken = new Set(knownTitles.values())

/**
 * A field of the service's row as its reader calls it: the list's column title where it has one
 * ("Network URL"; searches' `company_head_quarters_*` as rows' `company_headquarters_*`), else its
 * name in words ("contact_location_continent" reads "Continent", "company_description" "Company
 * description"). Words that would read as another field's title keep the field's name beside them.
 */
export function fieldTitle(key: string): string {
  const spelt = key.replace('head_quarters', 'headquarters')
  const known = knownTitles.get(spelt)
  if (known) return known
  if (key === 'contact_id') return 'Contact ID'
  const words = spelt
    .replace(/^contact_(location_)?/, '')
    .replace(/_/g, ' ')
    .replace(/\b(url|id|usd)\b/g, (word) => word.toUpperCase())
    .trim()
  const title = words.charAt(0).toUpperCase() + words.slice(1)
  return titlesTaken.has(title) ? `${title} (${key})` : title
}

/**
 * Every column of a list in order: its input columns as imported, the enrichment columns, then the
 * row's status, where its data came from and why it has none. The app's grid and export and the
 * command line's output all use these. An enrichment title that repeats an input header gets " (enriched)", so every
 * header of an export is unique.
 */
export function listColumns(inputHeaders: string[]): ResultColumn[] {
  const taken = new Set(inputHeaders.map((header) => header.trim().toLowerCase()))
  const unique = (title: string) => (taken.has(title.toLowerCase()) ? `${title} (enriched)` : title)
  const input: ResultColumn[] = inputHeaders.map((title, at) => ({
    key: `in:${at}`,
    title,
    kind: 'input',
    input: at,
    value: (row) => inputText(row, at),
    width: Math.min(260, Math.max(110, title.length * 9 + 40)),
  }))
  const found: ResultColumn[] = enriched.map(([key, title, width, facet]) => ({
    key,
    title: unique(title),
    kind: 'enriched',
    field: key,
    value: (row) => resultText(row, key),
    width,
    ...(facet ? { facet } : {}),
  }))
  const status: ResultColumn[] = [
    {
      key: 'status',
      title: unique('Status'),
      kind: 'status',
      value: (row) => row.status,
      facet: 'status',
      // "Changed since answered", the longest of its tags, whole.
      width: 190,
    },
    { key: 'origin', title: unique('Result from'), kind: 'status', value: originsText, width: 260 },
    { key: 'note', title: unique('Note'), kind: 'status', value: (row) => row.note ?? '', width: 260 },
  ]
  return [...input, ...found, ...status]
}
