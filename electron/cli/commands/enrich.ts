import { basename, extname, resolve } from 'node:path'
import { listColumns } from '../../domain/export/columns'
import { csvHeader, csvRows, type CsvFor } from '../../domain/export/csv'
import { xlsxWriter } from '../../domain/export/xlsx'
import { kindsOf } from '../../domain/kinds'
import { suggestMapping } from '../../domain/mapping'
import { leadReader, serviceFieldsOf, type ColumnMapping } from '../../domain/person'
import { rowNotes, withAnswer, type ListRow } from '../../domain/row'
import { decideRun } from '../../domain/run'
import { writeFileAtomic } from '../../engine/jobs/atomic-file'
import { jobIdContinuing } from '../../engine/jobs/manager'
import type { EnrichmentRow } from '../../engine/jobs/normalize'
import type { ResultRow, UncertainPolicy } from '../../domain/jobs'
import { mappableFields, mapColumns, parseMapOptions, type ColumnMap } from '../columns'
import type { GlobalOptions } from '../context'
import { managerFor, openContext, positiveNumber, stateDirFor } from '../context'
import { readList, type ListFile } from '../csv'
import { CliError, ExitCode } from '../exit-codes'
import { followJob } from '../run-job'
import { listCounts, printSummary, rerunCommand, summarize } from '../summary'

export interface EnrichOptions {
  output: string
  sheet?: string
  headerRow?: string
  csvFor: string
  email?: boolean
  phone?: boolean
  catchAll?: boolean
  maxCredits?: string
  onUncertain: string
  map: string[]
}

const policies: UncertainPolicy[] = ['ask', 'skip', 'resubmit']
const csvReaders: CsvFor[] = ['spreadsheet', 'import']

/** The row key the command line gives row `index` (0-based); results come home by it. */
const keyOf = (index: number) => `row-${index + 1}`
const indexOf = (key: string) => Number(key.slice(4)) - 1

/** The app's mapping rules (headers, then the look of the values), then `--map` by column name. */
function mappingFor(file: ListFile, overrides: ColumnMap): { mapping: ColumnMapping; idMap: ColumnMap } {
  const suggested = suggestMapping(file.columns, file.rows.slice(0, 200))
  const guessed: ColumnMap = {}
  for (const field of mappableFields) {
    const column = suggested[field]
    if (column !== undefined) guessed[field] = file.columns[column]
  }
  const map = mapColumns(file.columns, overrides, guessed)
  const mapping: ColumnMapping = {}
  for (const [field, column] of Object.entries(map) as [keyof ColumnMap, string][])
    mapping[field] = file.columns.indexOf(column)
  return { mapping, idMap: headerMap(file.columns, overrides) ?? map }
}

/**
 * The mapping by headers alone, which earlier versions built the job id from: a file they ran
 * keeps its id, so running the same command again resumes the job instead of paying twice.
 */
function headerMap(columns: string[], overrides: ColumnMap): ColumnMap | null {
  try {
    return mapColumns(columns, overrides)
  } catch {
    return null
  }
}

/**
 * The output file: every input column, then the export's columns, each row with what the run gave
 * it. The same columns and the same writer as the app's CSV export, so both give the same bytes.
 */
export function* enrichedCsv(
  file: Pick<ListFile, 'columns' | 'rows'>,
  rows: readonly ListRow[],
  csvFor: CsvFor = 'spreadsheet',
): Generator<string> {
  const columns = listColumns(file.columns)
  yield csvHeader(columns, csvFor)
  // Page by page: a million rows as one string pass the longest string a process can hold.
  for (let start = 0; start < rows.length; start += CSV_PAGE_ROWS) {
    yield csvRows(columns, rows.slice(start, start + CSV_PAGE_ROWS), csvFor)
  }
}

const CSV_PAGE_ROWS = 10_000

/** The same rows as an Excel workbook: one sheet, the header frozen, every cell as text. */
export function enrichedXlsx(
  file: Pick<ListFile, 'columns' | 'rows'>,
  rows: readonly ListRow[],
  name: string,
): Uint8Array[] {
  const columns = listColumns(file.columns)
  const chunks: Uint8Array[] = []
  const sheet = xlsxWriter(
    { sheetName: name, header: columns.map((column) => column.title), rows: rows.length },
    (chunk) => chunks.push(chunk),
  )
  for (const row of rows) sheet.row(columns.map((column) => column.value(row)))
  const { cut } = sheet.end()
  if (cut > 0) {
    process.stderr.write(
      `${cut} cells were longer than an Excel cell holds (32,767 characters) and were cut; a CSV output keeps them whole.\n`,
    )
  }
  return chunks
}

const writesExcel = (path: string) => /\.xlsx$/i.test(path)

/** The file's rows with what the run gave each, joined by key, twins marked as such. */
export function enrichedRows(file: Pick<ListFile, 'rows'>, results: Iterable<ResultRow>): ListRow[] {
  const rows: ListRow[] = file.rows.map((values, index) => ({ index, values, status: 'pending' }))
  for (const result of results) {
    const at = indexOf(result.key)
    const row = rows[at]
    if (!row) continue
    const origin = result.twinOf
      ? { via: 'twin' as const, row: indexOf(result.twinOf), at: 0 }
      : { via: 'service' as const, at: 0 }
    rows[at] = withAnswer(row, {
      status: result.status,
      data: result.data,
      kinds: result.kinds,
      origin,
      note: result.note,
    })
  }
  return rows
}

export async function enrichCommand(
  input: string,
  options: EnrichOptions,
  global: GlobalOptions,
): Promise<number> {
  if (!policies.includes(options.onUncertain as UncertainPolicy)) {
    throw new CliError(`--on-uncertain must be one of ${policies.join(', ')}.`, ExitCode.usage)
  }
  const policy = options.onUncertain as UncertainPolicy
  if (!csvReaders.includes(options.csvFor as CsvFor)) {
    throw new CliError(`--csv-for must be one of ${csvReaders.join(', ')}.`, ExitCode.usage)
  }
  const csvFor = options.csvFor as CsvFor
  const maxCredits = positiveNumber(options.maxCredits, '--max-credits')
  const output = resolve(options.output)
  const headerRow = positiveNumber(options.headerRow, '--header-row')
  if (headerRow !== undefined && !Number.isInteger(headerRow))
    throw new CliError(`--header-row needs a row number, got "${options.headerRow}".`, ExitCode.usage)
  const file = await readList(input, {
    sheet: options.sheet,
    ...(headerRow !== undefined ? { headerRow } : {}),
    note: (text) => process.stderr.write(text),
  })
  const { mapping, idMap } = mappingFor(file, parseMapOptions(options.map))
  const enrichment = {
    email: options.email ?? false,
    phone: options.phone ?? false,
    catchAll: options.catchAll ?? false,
  }
  if (!enrichment.email && !enrichment.phone) enrichment.email = true
  const leads = file.rows.map(leadReader(mapping))
  const plan = decideRun(
    leads.map((lead, index) => ({ key: keyOf(index), index, lead })),
    { ...enrichment, now: Date.now() },
  )
  const rows: EnrichmentRow[] = plan.decisions.flatMap((decision) => {
    if (decision.outcome !== 'send') return []
    const lead = leads[decision.index]!
    return [{ key: decision.key, ...serviceFieldsOf(lead), kinds: decision.send }]
  })
  const invalid: ResultRow[] = plan.decisions
    .filter((decision) => decision.outcome === 'invalid')
    .map((decision) => ({ key: decision.key, status: 'invalid', note: rowNotes.invalid }))
  const context = await openContext(global, process.env, stateDirFor(global, output))
  try {
    const { manager, ledger } = managerFor(context, stateDirFor(global, output))
    const estimate = manager.estimateEnrichment(rows, enrichment)
    const { counts } = plan
    process.stderr.write(
      `${counts.rows} rows: ${counts.people} people to send for ${kindsOf(enrichment).join(' + ')} in ${estimate.chunks} request(s) ` +
        `(${counts.rowsSent - counts.people} more rows name a person already sent, not charged; ` +
        `${counts.invalid} without enough to identify, not sent); ` +
        `cost between ${estimate.minCredits} and ${estimate.maxCredits} credits.\n`,
    )
    const id = jobIdContinuing(
      file.contentHash,
      JSON.stringify(idMap),
      JSON.stringify(enrichment),
      context.endpointId,
      output,
    )
    const results: ResultRow[] = [...invalid]
    let job = null
    if (rows.length > 0) {
      const started = manager.startEnrichment({
        id,
        label: input,
        rows,
        options: enrichment,
        maxCredits,
        onUncertain: policy,
      })
      job = await followJob(manager, started, policy)
      // One row at a time: a batch may answer hundreds of thousands of rows (one person on many of
      // them), more than a call can take as arguments.
      for (const batch of ledger.results(job.id, 0).batches) for (const row of batch.rows) results.push(row)
    }
    const enriched = enrichedRows(file, results)
    writeFileAtomic(
      output,
      writesExcel(output)
        ? enrichedXlsx(file, enriched, file.sheet ?? basename(input, extname(input)))
        : enrichedCsv(file, enriched, csvFor),
    )
    if (!job) {
      process.stderr.write(`No row can be sent; written to ${output}\n`)
      return ExitCode.done
    }
    const counted = listCounts(enriched, counts.rowsSent, counts.people)
    const summary = summarize(job, context, output, rerunCommand(process.argv), counted.skipped, counted)
    printSummary(summary, global.json === true)
    return summary.exitCode
  } finally {
    await context.close()
  }
}
