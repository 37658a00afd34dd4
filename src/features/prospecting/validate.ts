import { leadSearchBounds, companySearchBounds, inRange, type Range } from './bounds'
import { buildFilters, cleanList, type FilterDraft, type SearchKind } from './filters'
import { isKnownValue, type FilterField } from './taxonomies'

export type WarningCode =
  | 'empty_filters'
  | 'exclude_only'
  | 'single_company_lookup'
  | 'limit_out_of_bounds'
  | 'offset_out_of_bounds'
  | 'max_leads_out_of_bounds'
  | 'outside_taxonomy'
  | 'empty_range'
  | 'webhook_not_https'

/** `block` would be refused or can only find nothing, so submit is disabled; `warn` is worth a look. */
export interface SearchWarning {
  code: WarningCode
  severity: 'block' | 'warn'
  message: string
  /** The filter or option it concerns. */
  key?: string
}

export interface LeadPaging {
  limit?: number | null
  offset?: number | null
  maxLeads?: number | null
  webhook?: string | null
}

export interface CompanyPaging {
  limit?: number | null
  offset?: number | null
}

const rangeText = (range: Range) => `${range.min} to ${range.max.toLocaleString('en-US')}`

function boundWarning(
  code: WarningCode,
  key: string,
  label: string,
  value: number | null | undefined,
  range: Range,
): SearchWarning[] {
  if (value === null || value === undefined || inRange(value, range)) return []
  return [
    {
      code,
      key,
      severity: 'block',
      message: `${label} must be a whole number from ${rangeText(range)}; the service refuses ${value} (422).`,
    },
  ]
}

function taxonomyWarnings(
  fields: readonly FilterField[],
  draft: FilterDraft,
  kind: SearchKind,
): SearchWarning[] {
  const warnings: SearchWarning[] = []
  for (const field of fields) {
    if (field.type !== 'list' || !field.options) continue
    const list = cleanList(field, draft[field.key], kind)
    const unknown = [...list.include, ...list.exclude].filter((value) => !isKnownValue(field, value))
    if (unknown.length === 0) continue
    const quoted = unknown.map((value) => `"${value}"`).join(', ')
    warnings.push({
      code: 'outside_taxonomy',
      key: field.key,
      severity: 'warn',
      message: `${field.label}: ${quoted} ${unknown.length === 1 ? 'is' : 'are'} not in the list of known values and will match nothing (values must match exactly).`,
    })
  }
  return warnings
}

const rangePairs = [
  ['company_headcount_min', 'company_headcount_max', 'Headcount'],
  ['company_founded_year_min', 'company_founded_year_max', 'Founded year'],
] as const

function rangeWarnings(filters: Record<string, unknown>): SearchWarning[] {
  return rangePairs.flatMap(([minKey, maxKey, label]) => {
    const min = filters[minKey]
    const max = filters[maxKey]
    if (typeof min !== 'number' || typeof max !== 'number' || min <= max) return []
    return [
      {
        code: 'empty_range' as const,
        key: minKey,
        severity: 'warn' as const,
        message: `${label}: the minimum (${min}) is above the maximum (${max}), so nothing can match.`,
      },
    ]
  })
}

function emptyWarning(filters: Record<string, unknown>): SearchWarning[] {
  if (Object.keys(filters).length > 0) return []
  return [
    {
      code: 'empty_filters',
      severity: 'block',
      message: 'Add at least one filter: the service refuses a search without one (400).',
    },
  ]
}

/** True when some criterion narrows the search other than an `exclude` list. */
function hasPositiveCriterion(filters: Record<string, unknown>): boolean {
  return Object.values(filters).some((value) =>
    value !== null && typeof value === 'object'
      ? ((value as { include: string[] }).include?.length ?? 0) > 0
      : true,
  )
}

/** Everything about a lead search that would waste a request or credits, or find nothing. */
export function leadSearchWarnings(
  fields: readonly FilterField[],
  draft: FilterDraft,
  paging: LeadPaging,
): SearchWarning[] {
  const filters = buildFilters(fields, draft, 'lead')
  const warnings = emptyWarning(filters)
  if (warnings.length === 0 && !hasPositiveCriterion(filters)) {
    warnings.push({
      code: 'exclude_only',
      severity: 'block',
      message:
        'Only exclusions are set. Exclusions are applied after the provider answers, so a search made only of them matches nothing: add something to include.',
    })
  }
  const domains = filters['company'] as { include: string[]; exclude: string[] } | undefined
  if (
    Object.keys(filters).length === 1 &&
    domains?.include.length === 1 &&
    domains.exclude.length === 0 &&
    paging.limit === 1
  ) {
    warnings.push({
      code: 'single_company_lookup',
      key: 'company',
      severity: 'block',
      message:
        'One company domain with a limit of 1 is a single company lookup, which lead search refuses (422). Use Profile lookups, which is free, or raise the limit.',
    })
  }
  warnings.push(
    ...boundWarning('limit_out_of_bounds', 'limit', 'Limit', paging.limit, leadSearchBounds.limit),
    ...boundWarning('offset_out_of_bounds', 'offset', 'Offset', paging.offset, leadSearchBounds.offset),
    ...boundWarning(
      'max_leads_out_of_bounds',
      'maxLeads',
      'Max leads',
      paging.maxLeads,
      leadSearchBounds.maxLeads,
    ),
  )
  const webhook = paging.webhook?.trim()
  if (webhook && !isHttpsUrl(webhook)) {
    warnings.push({
      code: 'webhook_not_https',
      key: 'webhook',
      severity: 'block',
      message: 'A webhook must be a full https:// address.',
    })
  }
  return [...warnings, ...taxonomyWarnings(fields, draft, 'lead'), ...rangeWarnings(filters)]
}

/** The same checks for a company search (include only, its own bounds). */
export function companySearchWarnings(
  fields: readonly FilterField[],
  draft: FilterDraft,
  paging: CompanyPaging,
): SearchWarning[] {
  const filters = buildFilters(fields, draft, 'company')
  const warnings = emptyWarning(filters)
  warnings.push(
    ...boundWarning('limit_out_of_bounds', 'limit', 'Limit', paging.limit, companySearchBounds.limit),
  )
  if (paging.offset !== null && paging.offset !== undefined) {
    if (!Number.isInteger(paging.offset) || paging.offset < companySearchBounds.offsetMin) {
      warnings.push({
        code: 'offset_out_of_bounds',
        key: 'offset',
        severity: 'block',
        message: `Offset must be a whole number of 0 or more; the service would read ${paging.offset} as 0.`,
      })
    }
  }
  return [...warnings, ...taxonomyWarnings(fields, draft, 'company'), ...rangeWarnings(filters)]
}

export function isBlocking(warnings: readonly SearchWarning[]): boolean {
  return warnings.some((warning) => warning.severity === 'block')
}

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:'
  } catch {
    return false
  }
}
