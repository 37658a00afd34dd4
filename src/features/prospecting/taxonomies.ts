import filterSpecs from '../../../resources/taxonomies/filters.json'
import industries from '../../../resources/taxonomies/industries.json'
import technologies from '../../../resources/taxonomies/technologies.json'
import revenueRanges from '../../../resources/taxonomies/revenue_ranges.json'
import fundingRounds from '../../../resources/taxonomies/funding_rounds.json'
import seniorities from '../../../resources/taxonomies/seniorities.json'
import departments from '../../../resources/taxonomies/departments.json'
import locations from '../../../resources/taxonomies/locations.json'

export type FilterType = 'list' | 'integer' | 'boolean' | 'domains' | 'text'
export type FilterMatching = 'exact' | 'location' | 'contains' | 'domain' | 'number' | 'flag'

/** One filter the builder offers, generated from `filters.json` and its taxonomy file. */
export interface FilterField {
  key: string
  type: FilterType
  matching: FilterMatching
  label: string
  /** Person criteria are about the lead; everything else about their company. */
  group: 'company' | 'person'
  /** Values to pick from; `null` when the filter takes free text or a number. */
  options: readonly string[] | null
}

interface RawSpec {
  key: string
  type: string
  taxonomy: string | null
  matching: string
  label: string
}

interface Location {
  country: string
  states: { state: string; cities: string[] }[]
}

/** Countries, then states, then cities: the service matches a location on any of the three. */
export const locationValues: readonly string[] = unique(
  (locations as Location[]).flatMap((country) => [
    country.country,
    ...country.states.flatMap((state) => [state.state, ...state.cities]),
  ]),
)

const taxonomyFiles: Record<string, readonly string[]> = {
  'industries.json': industries,
  'technologies.json': technologies,
  'revenue_ranges.json': revenueRanges,
  'funding_rounds.json': fundingRounds,
  'seniorities.json': seniorities,
  'departments.json': departments,
  'locations.json': locationValues,
}

const personKeys = new Set(['job_title', 'contact_seniority', 'contact_department', 'contact_location'])

function toField(spec: RawSpec): FilterField {
  return {
    key: spec.key,
    type: spec.type as FilterType,
    matching: spec.matching as FilterMatching,
    label: spec.label,
    group: personKeys.has(spec.key) ? 'person' : 'company',
    options: spec.taxonomy ? (taxonomyFiles[spec.taxonomy] ?? null) : null,
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}

export const leadSearchFields: readonly FilterField[] = (filterSpecs.leadSearch as RawSpec[]).map(toField)
export const companySearchFields: readonly FilterField[] = (filterSpecs.companySearch as RawSpec[]).map(
  toField,
)

/** Whether a value can match anything: exact taxonomies are case-sensitive, locations are not. */
export function isKnownValue(field: FilterField, value: string): boolean {
  if (!field.options) return true
  if (field.matching === 'location') {
    const lower = value.toLowerCase()
    return field.options.some((option) => option.toLowerCase() === lower)
  }
  return field.options.includes(value)
}

const spelledOut: Record<string, string> = { c_suite: 'C-suite', vp: 'VP', entry: 'Entry level' }

/**
 * How a taxonomy value reads in a picker: identifiers ("c_suite", "customer_success") spelled as
 * words; the value sent stays the exact one the service matches.
 */
export function optionLabel(value: string): string {
  if (spelledOut[value]) return spelledOut[value]
  if (!/^[a-z][a-z0-9_]*$/.test(value)) return value
  const words = value.replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}
