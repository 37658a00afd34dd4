import fundingRounds from '../../../resources/taxonomies/funding_rounds.json'

/** Reads a company payload of any of the service's shapes (both headquarters spellings). */
export function field(data: Record<string, unknown>, name: string): unknown {
  const value = data[name]
  if (value !== undefined && value !== null && value !== '') return value
  if (name.startsWith('company_head_quarters_')) return data[`company_headquarters_${name.slice(22)}`]
  return value
}

export function fieldText(data: Record<string, unknown>, name: string): string {
  const value = field(data, name)
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.join(', ')
  return String(value).trim()
}

/** A company's size band as the service gives it: "201–500", or "10001+" when it has no end. */
export function employeeRange(data: Record<string, unknown>): string {
  const start = fieldText(data, 'company_employees_range_start')
  const end = fieldText(data, 'company_employees_range_end')
  if (!start) return ''
  return end ? `${start}–${end}` : `${start}+`
}

/** 'human_resources' reads as 'Human resources'. */
export function humanize(value: string): string {
  const spaced = value.replace(/_/g, ' ').trim()
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}

/** A round name as the funding taxonomy spells it ('series_b' → 'Series B'), else humanized. */
export function fundingRoundLabel(value: string): string {
  const plain = (text: string) =>
    text
      .toLowerCase()
      .replace(/[\s_-]+/g, ' ')
      .trim()
  return fundingRounds.find((round) => plain(round) === plain(value)) ?? humanize(value)
}

export function formatUsd(value: unknown): string {
  const amount = typeof value === 'number' ? value : Number(value)
  if (value === null || value === undefined || value === '' || !Number.isFinite(amount)) return ''
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    notation: amount >= 1_000_000 ? 'compact' : 'standard',
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  }).format(amount)
}

export function formatDate(value: unknown): string {
  if (typeof value !== 'string' || value === '') return ''
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`)
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
}

/** A link the user can open: only http(s) addresses, a bare domain read as https. */
export function safeHref(value: string): string | null {
  if (value === '') return null
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`
  try {
    const url = new URL(candidate)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null
  } catch {
    return null
  }
}

/**
 * The parts of a company's profile as its page lays them out, each by the fields it shows (a name
 * ending in `*` stands for every field it starts): when a part was fetched is its latest field's.
 */
export const profileParts = {
  facts: [
    'company_name',
    'company_description',
    'company_industry',
    'company_type',
    'company_founded_year',
    'company_employees_count',
    'company_employees_number',
    'company_size_range',
    'company_employees_range_*',
    'company_revenue_range',
  ],
  funding: ['company_last_funding_*', 'company_last_amount_raised_usd', 'company_total_amount_raised_usd'],
  departments: ['company_employees_by_department'],
  technologies: ['company_technologies'],
  keywords: ['company_keywords'],
  where: [
    'company_head_quarters_*',
    'company_headquarters',
    'company_address_*',
    'company_locations_count',
    'company_active_job_postings_count',
  ],
} satisfies Record<string, string[]>

export type ProfilePart = keyof typeof profileParts

/** When a part was last fetched (ms), from when each field was (`CompanyRecord.fieldsAt`); 0 if never. */
export function partFetchedAt(fieldsAt: Readonly<Record<string, number>>, part: ProfilePart): number {
  let latest = 0
  for (const name of profileParts[part]) {
    if (!name.endsWith('*')) latest = Math.max(latest, fieldsAt[name] ?? 0)
    else
      for (const [field, at] of Object.entries(fieldsAt))
        if (field.startsWith(name.slice(0, -1))) latest = Math.max(latest, at)
  }
  return latest
}
