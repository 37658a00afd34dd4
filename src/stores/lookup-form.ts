import type { ChannelInput } from '@shared/contract'

export interface CompanyLookupForm {
  domain: string
  networkUrl: string
}

export interface LeadLookupForm {
  networkUrl: string
  firstName: string
  lastName: string
  domain: string
  company: string
}

/** Why the service would refuse this company lookup (422), or null when it can be sent. */
export function companyLookupProblem(form: CompanyLookupForm): string | null {
  if (form.domain.trim() || form.networkUrl.trim()) return null
  return 'Give a company domain or a network URL: the service refuses a lookup without either.'
}

export function companyLookupInput(form: CompanyLookupForm): ChannelInput<'lookup/company'> {
  const domain = form.domain.trim().toLowerCase()
  const networkUrl = form.networkUrl.trim()
  return {
    ...(domain ? { company_domain: domain } : {}),
    ...(networkUrl ? { company_network_url: networkUrl } : {}),
  }
}

/** Why the service would refuse this lead lookup (422), or null when it can be sent. */
export function leadLookupProblem(form: LeadLookupForm): string | null {
  if (form.networkUrl.trim()) return null
  const missing = [
    ['first name', form.firstName],
    ['last name', form.lastName],
    ['company domain', form.domain],
  ]
    .filter(([, value]) => !value!.trim())
    .map(([name]) => name)
  if (missing.length === 0) return null
  const companyNote =
    form.company.trim() && !form.domain.trim() ? ' A company name does not replace the domain.' : ''
  return `Give the person's network URL, or first name, last name and company domain together (missing: ${missing.join(', ')}).${companyNote}`
}

/** A network URL identifies the person alone; the service ignores everything else when it is present. */
export function leadLookupInput(form: LeadLookupForm): ChannelInput<'lookup/lead'> {
  const networkUrl = form.networkUrl.trim()
  if (networkUrl) return { network_url: networkUrl }
  const company = form.company.trim()
  return {
    first_name: form.firstName.trim(),
    last_name: form.lastName.trim(),
    company_domain: form.domain.trim().toLowerCase(),
    ...(company ? { company } : {}),
  }
}
