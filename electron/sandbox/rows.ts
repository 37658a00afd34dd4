import type { ContactTraits } from './contacts'
import { rngFor } from './world/random'
import { titleCase } from './world/text'
import type { Company, Person } from './world/types'

export interface CustomField {
  name: string
  value: string
  position: number
}

/** Submitted as an object, returned as an array numbered from 0. */
export function customFieldsArray(input: unknown): CustomField[] {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return []
  return Object.entries(input as Record<string, unknown>).map(([name, value], position) => ({
    name,
    value:
      value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value),
    position,
  }))
}

function contactCore(person: Person) {
  return {
    contact_first_name: titleCase(person.firstName),
    contact_last_name: titleCase(person.lastName),
    contact_full_name: titleCase(`${person.firstName} ${person.lastName}`),
    contact_job_title: titleCase(person.jobTitle),
    contact_seniority: person.seniority,
    contact_industry: person.company.industry,
  }
}

function companyCore(company: Company) {
  return {
    company_name: titleCase(company.name),
    company_domain: company.domain,
    company_description: company.description,
    company_network_url: company.networkUrl,
    company_industry: company.industry,
    company_type: company.type,
    company_keywords: [...company.keywords],
    company_founded_year: company.foundedYear,
    company_employees_range_start: company.employeesStart,
    company_employees_range_end: company.employeesEnd,
  }
}

export interface EnrichedInput {
  contactId: number
  firstName: string
  lastName: string
  domain: string
  customFields: CustomField[]
}

/** Row of an enrichment result, also the per-lead webhook body without `request_id`. */
export function enrichedRow(input: EnrichedInput, person: Person | null, traits: ContactTraits) {
  const first = titleCase(input.firstName)
  const last = titleCase(input.lastName)
  const company = person?.company ?? null
  return {
    enriched: person !== null,
    contact_id: person?.id ?? input.contactId,
    custom_fields: input.customFields,
    contact_first_name: person ? titleCase(person.firstName) : first,
    contact_last_name: person ? titleCase(person.lastName) : last,
    contact_full_name: person ? contactCore(person).contact_full_name : `${first} ${last}`.trim(),
    contact_job_title: person ? contactCore(person).contact_job_title : null,
    contact_seniority: person?.seniority ?? null,
    contact_industry: company?.industry ?? null,
    contact_network_headline: person ? person.headline : null,
    contact_network_profile_url: person?.networkUrl ?? null,
    contact_location_continent: person?.location.continent ?? null,
    contact_location_country: person?.location.country ?? null,
    contact_location_state: person?.location.state ?? null,
    contact_location_city: person?.location.city ?? null,
    contact_email_address: traits.emailAddress,
    contact_email_address_status: traits.emailStatus,
    contact_email_address_provider: traits.emailSource,
    email_provider: traits.mailboxProvider,
    contact_phone_number: traits.phone,
    contact_phone_number_provider: traits.phoneSource,
    company_name: company ? titleCase(company.name) : null,
    company_domain: company?.domain ?? (input.domain || null),
    company_description: company?.description ?? null,
    company_network_url: company?.networkUrl ?? null,
    company_industry: company?.industry ?? null,
    company_type: company?.type ?? null,
    company_keywords: company ? [...company.keywords] : [],
    company_founded_year: company?.foundedYear ?? null,
    company_employees_range_start: company?.employeesStart ?? null,
    company_employees_range_end: company?.employeesEnd ?? null,
    company_headquarters_city: company?.hq.city ?? null,
    company_headquarters_country: company?.hq.country ?? null,
  }
}

export type EnrichedRow = ReturnType<typeof enrichedRow>

export function leadSearchRow(person: Person, traits: ContactTraits) {
  return {
    contact_id: person.id,
    ...contactCore(person),
    contact_headline: person.headline,
    contact_gender: person.gender,
    contact_network_profile_url: person.networkUrl,
    contact_location_continent: person.location.continent,
    contact_location_country: person.location.country,
    contact_location_state: person.location.state,
    contact_location_city: person.location.city,
    contact_email_address: traits.emailAddress,
    contact_email_address_status: traits.emailStatus,
    contact_email_address_provider: traits.emailSource,
    contact_phone_number: traits.phone,
    ...companyCore(person.company),
    company_head_quarters_city: person.company.hq.city,
    company_head_quarters_country: person.company.hq.country,
    custom_fields: [] as CustomField[],
  }
}

export type LeadSearchRow = ReturnType<typeof leadSearchRow>

export function companySearchRow(company: Company) {
  return {
    company_id: company.id,
    company_name: titleCase(company.name),
    company_domain: company.domain,
    company_website: `https://${company.domain}`,
    company_network_url: company.networkUrl,
    company_fundingdb_url: company.fundingdbUrl,
    company_logo_url: company.logoUrl,
    company_industry: company.industry,
    company_type: company.type,
    company_description: company.description,
    company_founded_year: company.foundedYear,
    company_keywords: [...company.keywords],
    company_technologies: [...company.technologies],
    company_employees_range_start: company.employeesStart,
    company_employees_range_end: company.employeesEnd,
    company_employees_count: company.employeesCount,
    company_employees_by_department: { ...company.byDepartment },
    company_size_range: company.sizeRange,
    company_revenue_range: company.revenueRange,
    company_locations_count: company.locationsCount,
    company_last_funding_round_name: company.lastFundingRound,
    company_last_amount_raised_usd: company.lastAmountRaisedUsd,
    company_total_amount_raised_usd: company.totalRaisedUsd,
    company_last_funding_date: company.lastFundingDate,
    company_head_quarters_city: company.hq.city,
    company_head_quarters_state: company.hq.state,
    company_head_quarters_country: company.hq.country,
    company_head_quarters_address: company.hqAddress,
    company_active_job_postings_count: company.activeJobPostings,
  }
}

/** Every `company_*` key of a lead search row, each null: the company profile carries them all. */
const LEAD_ROW_COMPANY_KEYS = [
  'company_name',
  'company_domain',
  'company_description',
  'company_network_url',
  'company_industry',
  'company_type',
  'company_keywords',
  'company_founded_year',
  'company_employees_range_start',
  'company_employees_range_end',
  'company_head_quarters_city',
  'company_head_quarters_country',
] as const

export function companyProfile(company: Company) {
  const nulls = Object.fromEntries(LEAD_ROW_COMPANY_KEYS.map((key) => [key, null]))
  return {
    ...nulls,
    company_id: company.id,
    company_name: titleCase(company.name),
    company_description: company.description,
    company_industry: company.industry,
    company_domain: company.domain,
    company_website: company.domain,
    company_network_url: company.networkUrl,
    company_type: company.type === null ? null : company.type.toLowerCase().replace(/\s+/g, '_'),
    company_founded_year: company.foundedYear,
    company_employees_number: company.employeesCount,
    company_employees_range_start: company.employeesStart,
    company_employees_range_end: company.employeesEnd,
    company_headquarters: [company.hqAddress, company.hq.city, company.hq.state, company.hq.country]
      .filter(Boolean)
      .join(', '),
    company_head_quarters_city: company.hq.city,
    company_head_quarters_country: company.hq.country,
    company_address_city: company.hq.city,
    // The live profile often lacks address parts and sends them as empty strings, not null.
    company_address_state: company.id % 5 === 0 ? '' : company.hq.state,
    company_address_country: company.hq.country,
    company_address_zipcode: company.hqZipcode,
    company_keywords: [...company.keywords],
  }
}

/** Exactly the 25 documented fields, with the documented gaps (continent and city often null). */
export function leadProfile(seed: number, person: Person) {
  const rng = rngFor(seed, 'profile', String(person.id))
  const company = person.company
  return {
    contact_id: person.id,
    ...contactCore(person),
    contact_network_headline: person.headline,
    contact_network_profile_url: person.networkUrl,
    contact_location_continent: rng.chance(0.35) ? null : person.location.continent,
    contact_location_country: person.location.country,
    contact_location_state: person.location.state,
    contact_location_city: rng.chance(0.35) ? null : person.location.city,
    company_name: titleCase(company.name),
    company_domain: company.domain,
    company_description: company.description,
    company_network_url: company.networkUrl,
    company_industry: company.industry,
    company_type: company.type,
    company_founded_year: company.foundedYear,
    company_employees_range_start: company.employeesStart,
    company_employees_range_end: company.employeesEnd,
    company_headquarters_city: rng.chance(0.2)
      ? [company.hqAddress, company.hq.city].filter(Boolean).join(', ')
      : company.hq.city,
    company_headquarters_country: company.hq.country,
    company_keywords: [...company.keywords],
  }
}
