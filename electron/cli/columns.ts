import { headerField } from '../shared/headers'
import { CliError, ExitCode } from './exit-codes'

export const mappableFields = [
  'first_name',
  'last_name',
  'full_name',
  'company_domain',
  'website',
  'email',
  'company_name',
  'network_url',
] as const
export type MappableField = (typeof mappableFields)[number]
export type ColumnMap = Partial<Record<MappableField, string>>

/** Maps CSV headers to lead fields; `overrides` (from `--map field=COLUMN`) win over the guesses. */
export function mapColumns(headers: readonly string[], overrides: ColumnMap = {}): ColumnMap {
  const map: ColumnMap = {}
  const used = new Set<string>()
  for (const field of mappableFields) {
    const header = headers.find((h) => !used.has(h) && headerField(h) === field)
    if (header !== undefined) {
      map[field] = header
      used.add(header)
    }
  }
  for (const [field, header] of Object.entries(overrides) as [MappableField, string][]) {
    if (!headers.includes(header)) {
      throw new CliError(
        `--map ${field}=${header}: no column "${header}". Columns are: ${headers.join(', ')}.`,
        ExitCode.usage,
      )
    }
    map[field] = header
  }
  const named = (map.first_name && map.last_name) || map.full_name
  const located = map.company_domain || map.website || map.email
  if (!map.network_url && !(named && located)) {
    throw new CliError(
      `Cannot tell which columns hold the names and the company domain (columns: ${headers.join(', ')}). ` +
        'Name them with --map, e.g. --map first_name=Prénom --map last_name=Nom --map company_domain=Site.',
      ExitCode.usage,
    )
  }
  return map
}

export function parseMapOptions(values: readonly string[]): ColumnMap {
  const map: ColumnMap = {}
  for (const value of values) {
    const eq = value.indexOf('=')
    const field = value.slice(0, eq).trim() as MappableField
    if (eq <= 0 || !mappableFields.includes(field)) {
      throw new CliError(
        `--map ${value}: expected FIELD=COLUMN with FIELD one of ${mappableFields.join(', ')}.`,
        ExitCode.usage,
      )
    }
    map[field] = value.slice(eq + 1).trim()
  }
  return map
}
