import industries from '../../../resources/taxonomies/industries.json' with { type: 'json' }
import technologies from '../../../resources/taxonomies/technologies.json' with { type: 'json' }
import revenueRanges from '../../../resources/taxonomies/revenue_ranges.json' with { type: 'json' }
import fundingRounds from '../../../resources/taxonomies/funding_rounds.json' with { type: 'json' }
import seniorities from '../../../resources/taxonomies/seniorities.json' with { type: 'json' }
import departments from '../../../resources/taxonomies/departments.json' with { type: 'json' }
import companySizes from '../../../resources/taxonomies/company_sizes.json' with { type: 'json' }
import locations from '../../../resources/taxonomies/locations.json' with { type: 'json' }
import filters from '../../../resources/taxonomies/filters.json' with { type: 'json' }

export interface CountryEntry {
  continent: string
  country: string
  phonePrefix: string
  states: { state: string; cities: string[] }[]
}

export type FilterType = 'list' | 'integer' | 'boolean' | 'domains' | 'text'
export type FilterMatching = 'exact' | 'location' | 'contains' | 'domain' | 'number' | 'flag'

export interface FilterSpec {
  key: string
  type: FilterType
  taxonomy: string | null
  matching: FilterMatching
  label: string
}

export const taxonomies = {
  industries: industries as string[],
  technologies: technologies as string[],
  revenueRanges: revenueRanges as string[],
  fundingRounds: fundingRounds as string[],
  seniorities: seniorities as string[],
  departments: departments as string[],
  companySizes: companySizes as string[],
  locations: locations as CountryEntry[],
}

export const leadSearchFilters = filters.leadSearch as FilterSpec[]
export const companySearchFilters = filters.companySearch as FilterSpec[]
