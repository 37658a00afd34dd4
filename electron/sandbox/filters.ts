import { placeMatches } from './world/places'
import { companySearchFilters, leadSearchFilters, type FilterSpec } from './world/taxonomies'
import type { Company, Person } from './world/types'

export interface ParsedFilters {
  lists: Map<string, { include: string[]; exclude: string[] }>
  integers: Map<string, number>
  booleans: Map<string, boolean>
  texts: Map<string, string>
}

type Subject = { company: Company; person?: Person }

const LIST_TESTS: Record<string, (value: string, s: Subject) => boolean> = {
  company_industry: (v, { company }) => company.industry === v,
  company_hq_location: (v, { company }) => placeMatches(company.hq, v),
  company: (v, { company }) => company.domain === v,
  company_technologies: (v, { company }) => company.technologies.includes(v),
  company_revenue_range: (v, { company }) => company.revenueRange === v,
  company_funding_round: (v, { company }) => company.lastFundingRound === v,
  job_title: (v, { person }) => !!person && person.jobTitle.toLowerCase().includes(v.toLowerCase()),
  contact_seniority: (v, { person }) => person?.seniority === v,
  contact_department: (v, { person }) => person?.department === v,
  contact_location: (v, { person }) => !!person && placeMatches(person.location, v),
}

const INTEGER_TESTS: Record<string, (v: number, s: Subject) => boolean> = {
  company_headcount_min: (v, { company }) => company.employeesCount >= v,
  company_headcount_max: (v, { company }) => company.employeesCount <= v,
  company_active_job_postings_min: (v, { company }) => company.activeJobPostings >= v,
  company_founded_year_min: (v, { company }) => company.foundedYear !== null && company.foundedYear >= v,
  company_founded_year_max: (v, { company }) => company.foundedYear !== null && company.foundedYear <= v,
  company_total_funding_min: (v, { company }) => (company.totalRaisedUsd ?? 0) >= v,
}

const BOOLEAN_TESTS: Record<string, (v: boolean, s: Subject) => boolean> = {
  is_b2b: (v, { company }) => company.isB2b === v,
  company_is_hiring: (v, { company }) => company.activeJobPostings > 0 === v,
}

const TEXT_TESTS: Record<string, (v: string, s: Subject) => boolean> = {
  company_name: (v, { company }) => company.name.toLowerCase().includes(v.toLowerCase()),
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value)) return []
  return value
    .filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    .map((s) => s.trim())
}

function integer(value: unknown): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof number === 'number' && Number.isFinite(number) ? Math.trunc(number) : null
}

function boolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value
  if (value === 'true' || value === 'false') return value === 'true'
  return null
}

function parse(raw: Record<string, unknown>, specs: FilterSpec[], readExclude: boolean): ParsedFilters {
  const parsed: ParsedFilters = {
    lists: new Map(),
    integers: new Map(),
    booleans: new Map(),
    texts: new Map(),
  }
  for (const spec of specs) {
    const value = raw[spec.key]
    if (value === undefined || value === null) continue
    if (spec.type === 'list' || spec.type === 'domains') {
      const object = Array.isArray(value) ? { include: value } : (value as Record<string, unknown>)
      const include = strings(object.include)
      const exclude = readExclude ? strings(object.exclude) : []
      if (include.length || exclude.length) parsed.lists.set(spec.key, { include, exclude })
    } else if (spec.type === 'integer') {
      const number = integer(value)
      if (number !== null) parsed.integers.set(spec.key, number)
    } else if (spec.type === 'boolean') {
      const flag = boolean(value)
      if (flag !== null) parsed.booleans.set(spec.key, flag)
    } else if (typeof value === 'string' && value.trim()) {
      parsed.texts.set(spec.key, value.trim())
    }
  }
  return parsed
}

/** Lead search reads include and exclude of every known key; unknown keys are ignored. */
export const parseLeadFilters = (raw: Record<string, unknown>) => parse(raw, leadSearchFilters, true)
/** Company search reads only `include`, and only company keys. */
export const parseCompanyFilters = (raw: Record<string, unknown>) => parse(raw, companySearchFilters, false)

export function isBlank(filters: ParsedFilters): boolean {
  return !filters.lists.size && !filters.integers.size && !filters.booleans.size && !filters.texts.size
}

/** True when something besides `exclude` lists narrows the search. */
export function hasPositiveCriterion(filters: ParsedFilters): boolean {
  return (
    [...filters.lists.values()].some((list) => list.include.length > 0) ||
    filters.integers.size > 0 ||
    filters.booleans.size > 0 ||
    filters.texts.size > 0
  )
}

function includes(filters: ParsedFilters, subject: Subject, keys: (key: string) => boolean): boolean {
  for (const [key, list] of filters.lists) {
    const test = LIST_TESTS[key]
    if (!test || !keys(key) || list.include.length === 0) continue
    if (!list.include.some((value) => test(value, subject))) return false
  }
  for (const [key, value] of filters.integers) {
    const test = INTEGER_TESTS[key]
    if (test && keys(key) && !test(value, subject)) return false
  }
  for (const [key, value] of filters.booleans) {
    const test = BOOLEAN_TESTS[key]
    if (test && keys(key) && !test(value, subject)) return false
  }
  for (const [key, value] of filters.texts) {
    const test = TEXT_TESTS[key]
    if (test && keys(key) && !test(value, subject)) return false
  }
  return true
}

function excluded(filters: ParsedFilters, subject: Subject): boolean {
  for (const [key, list] of filters.lists) {
    const test = LIST_TESTS[key]
    if (test && list.exclude.some((value) => test(value, subject))) return true
  }
  return false
}

const PERSON_KEYS = new Set(['job_title', 'contact_seniority', 'contact_department', 'contact_location'])

export function matchCompanies(companies: Company[], filters: ParsedFilters): Company[] {
  return companies.filter((company) => includes(filters, { company }, () => true))
}

/** Exclusions apply after the includes, so a search made only of `exclude` lists matches nothing. */
export function matchPeople(people: Person[], filters: ParsedFilters): Person[] {
  if (!hasPositiveCriterion(filters)) return []
  const companyOk = new Map<number, boolean>()
  return people.filter((person) => {
    const { company } = person
    let ok = companyOk.get(company.id)
    if (ok === undefined) {
      ok = includes(filters, { company }, (key) => !PERSON_KEYS.has(key))
      companyOk.set(company.id, ok)
    }
    const subject = { company, person }
    return ok && includes(filters, subject, (key) => PERSON_KEYS.has(key)) && !excluded(filters, subject)
  })
}

/** True when the sandbox matches on `spec.key` with the test its declared type calls for. */
export function isImplemented(spec: FilterSpec): boolean {
  switch (spec.type) {
    case 'list':
    case 'domains':
      return spec.key in LIST_TESTS
    case 'integer':
      return spec.key in INTEGER_TESTS
    case 'boolean':
      return spec.key in BOOLEAN_TESTS
    case 'text':
      return spec.key in TEXT_TESTS
  }
}
