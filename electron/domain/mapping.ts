import { headerField } from './headers'
import {
  isWellFormedDomain,
  mappedFieldNames,
  normalizeDomain,
  type ColumnMapping,
  type MappedField,
} from './person'

export { headerField }

export const fieldLabels: Record<MappedField, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  full_name: 'Full name',
  company_domain: 'Company domain',
  company_name: 'Company name',
  website: 'Website',
  email: 'Email',
  network_url: 'Network profile URL',
}

const valueKinds: { field: MappedField; test: (value: string) => boolean }[] = [
  { field: 'network_url', test: (value) => /linkedin\.com\/(in|pub)\//i.test(value) },
  { field: 'email', test: (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) },
  { field: 'website', test: (value) => /^(https?:\/\/|www\.)/i.test(value) },
  {
    field: 'company_domain',
    test: (value) => /^[^\s/@]+$/.test(value) && isWellFormedDomain(normalizeDomain(value)),
  },
]

/** For columns whose header says nothing: what most of their sample values look like. */
function valueField(values: string[]): MappedField | null {
  const filled = values.map((value) => value.trim()).filter(Boolean)
  if (filled.length === 0) return null
  for (const { field, test } of valueKinds) {
    if (filled.filter(test).length >= filled.length * 0.8) return field
  }
  return null
}

/**
 * Suggests which column feeds each field: by header first, then by the look of the values for
 * columns the headers leave unexplained. The first column wins when two claim the same field.
 */
export function suggestMapping(columns: string[], sample: string[][]): ColumnMapping {
  const mapping: ColumnMapping = {}
  columns.forEach((column, index) => {
    const field = headerField(column)
    if (field && mapping[field] === undefined) mapping[field] = index
  })
  const claimed = new Set(Object.values(mapping))
  columns.forEach((_, index) => {
    if (claimed.has(index)) return
    const field = valueField(sample.map((row) => row[index] ?? ''))
    if (field && mapping[field] === undefined) mapping[field] = index
  })
  return mapping
}

/** The key under which a mapping is remembered for files with the same headers. */
export function mappingSignature(columns: string[]): string {
  return columns.map((column) => column.trim().toLowerCase()).join('\u0001')
}

/** Drops fields pointing past the columns, so a saved mapping never reads a cell that is not there. */
export function fitMapping(mapping: ColumnMapping, width: number): ColumnMapping {
  const fitted: ColumnMapping = {}
  for (const field of mappedFieldNames) {
    const column = mapping[field]
    if (column !== undefined && Number.isInteger(column) && column >= 0 && column < width)
      fitted[field] = column
  }
  return fitted
}
