import { suggestMapping } from '../domain/mapping'
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

/**
 * Maps CSV headers to lead fields: `guessed` (the app's suggestion, by default from the headers
 * alone), then `overrides` (from `--map field=COLUMN`), which win.
 */
export function mapColumns(
  headers: readonly string[],
  overrides: ColumnMap = {},
  guessed: ColumnMap = headerGuesses(headers),
): ColumnMap {
  const map: ColumnMap = {}
  for (const field of mappableFields) if (guessed[field] !== undefined) map[field] = guessed[field]
  for (const [field, header] of Object.entries(overrides) as [MappableField, string][]) {
    if (!headers.includes(header)) {
      throw new CliError(
        `--map ${field}=${header}: no column "${header}". Columns are: ${columnList(headers)}.`,
        ExitCode.usage,
      )
    }
    map[field] = header
  }
  const named = (map.first_name && map.last_name) || map.full_name
  const located = map.company_domain || map.website || map.email
  if (!map.network_url && !(named && located)) {
    throw new CliError(
      `Cannot tell which columns hold the names and the company domain (columns: ${columnList(headers)}). ` +
        'Name them with --map, e.g. --map first_name=Prénom --map last_name=Nom --map company_domain=Site.',
      ExitCode.usage,
    )
  }
  return map
}

/** The first few column names and how many more: a 5,000-column file is not printed whole. */
export function columnList(headers: readonly string[], shown = 8): string {
  const first = headers.slice(0, shown).join(', ')
  return headers.length > shown ? `${first} and ${headers.length - shown} more` : first
}

function headerGuesses(headers: readonly string[]): ColumnMap {
  const suggested = suggestMapping([...headers], [])
  const map: ColumnMap = {}
  for (const field of mappableFields) {
    const column = suggested[field]
    if (column !== undefined) map[field] = headers[column]
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
