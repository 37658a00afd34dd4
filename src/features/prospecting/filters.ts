import type { FilterField } from './taxonomies'

/** What the user entered for one list or domain filter. */
export interface ListValue {
  include: string[]
  exclude: string[]
}

export type FilterValue = ListValue | number | boolean | string | null

/** The builder's state: one entry per filter key the user touched. */
export type FilterDraft = Record<string, FilterValue | undefined>

export type SearchKind = 'lead' | 'company'

export function emptyList(): ListValue {
  return { include: [], exclude: [] }
}

function cleanValues(values: readonly string[], lowercase: boolean): string[] {
  const cleaned = values.map((value) => (lowercase ? value.trim().toLowerCase() : value.trim()))
  return [...new Set(cleaned.filter((value) => value !== ''))]
}

function asList(value: FilterValue | undefined): ListValue {
  return value !== null && typeof value === 'object' ? value : emptyList()
}

/** A list or domain filter after trimming, de-duplication and, for domains, lowercasing. */
export function cleanList(field: FilterField, value: FilterValue | undefined, kind: SearchKind): ListValue {
  const list = asList(value)
  // The `company` filter compares domains case-sensitively and the service keeps them in lowercase.
  const lowercase = field.type === 'domains'
  return {
    include: cleanValues(list.include, lowercase),
    // Company search silently ignores `exclude`, so it is never sent there.
    exclude: kind === 'company' ? [] : cleanValues(list.exclude, lowercase),
  }
}

/**
 * The `filters` object of a search request exactly as the service wants it: only keys the builder
 * knows for this kind of search, no blank values, list filters as `{include, exclude}` for lead search
 * and `{include}` for company search.
 */
export function buildFilters(
  fields: readonly FilterField[],
  draft: FilterDraft,
  kind: SearchKind,
): Record<string, unknown> {
  const filters: Record<string, unknown> = {}
  for (const field of fields) {
    const value = draft[field.key]
    if (value === undefined || value === null) continue
    switch (field.type) {
      case 'list':
      case 'domains': {
        const list = cleanList(field, value, kind)
        if (kind === 'company' && list.include.length) filters[field.key] = { include: list.include }
        else if (kind === 'lead' && (list.include.length || list.exclude.length)) filters[field.key] = list
        break
      }
      case 'integer':
        if (typeof value === 'number' && Number.isFinite(value)) filters[field.key] = Math.trunc(value)
        break
      case 'boolean':
        if (typeof value === 'boolean') filters[field.key] = value
        break
      case 'text':
        if (typeof value === 'string' && value.trim()) filters[field.key] = value.trim()
        break
    }
  }
  return filters
}

/** Reads filters back into a draft (a saved search, a re-run), ignoring keys the builder does not know. */
export function draftFromFilters(
  fields: readonly FilterField[],
  filters: Record<string, unknown>,
): FilterDraft {
  const draft: FilterDraft = {}
  for (const field of fields) {
    const value = filters[field.key]
    if (value === undefined || value === null) continue
    if (field.type === 'list' || field.type === 'domains') {
      const list = value as Partial<ListValue>
      draft[field.key] = { include: [...(list.include ?? [])], exclude: [...(list.exclude ?? [])] }
    } else if (field.type === 'integer' && typeof value === 'number') draft[field.key] = value
    else if (field.type === 'boolean' && typeof value === 'boolean') draft[field.key] = value
    else if (field.type === 'text' && typeof value === 'string') draft[field.key] = value
  }
  return draft
}
