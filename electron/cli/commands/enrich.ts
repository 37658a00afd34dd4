import { resolve } from 'node:path'
import { jobIdFrom } from '../../engine/jobs/manager'
import type { EnrichmentRow } from '../../engine/jobs/normalize'
import type { ResultRow, UncertainPolicy } from '../../engine/jobs/types'
import type { ColumnMap } from '../columns'
import { mapColumns, parseMapOptions } from '../columns'
import type { GlobalOptions } from '../context'
import { managerFor, openContext, positiveNumber, stateDirFor } from '../context'
import { readCsv, writeCsv } from '../csv'
import { CliError, ExitCode } from '../exit-codes'
import { followJob } from '../run-job'
import { printSummary, summarize } from '../summary'

export interface EnrichOptions {
  output: string
  email?: boolean
  phone?: boolean
  catchAll?: boolean
  maxCredits?: string
  onUncertain: string
  map: string[]
}

/** Columns appended to every input row, in this order. */
export const enrichmentColumns = [
  'contact_first_name',
  'contact_last_name',
  'contact_full_name',
  'contact_job_title',
  'contact_seniority',
  'contact_email_address',
  'contact_email_address_status',
  'contact_phone_number',
  'contact_network_profile_url',
  'contact_location_country',
  'contact_location_city',
  'company_name',
  'company_domain',
  'company_industry',
  'company_network_url',
]
export const statusColumn = 'leadkeeper_status'
export const noteColumn = 'leadkeeper_note'

const policies: UncertainPolicy[] = ['ask', 'skip', 'resubmit']

function rowsFrom(records: Record<string, string>[], map: ColumnMap): EnrichmentRow[] {
  return records.map((record, index) => {
    const row: EnrichmentRow = { key: `row-${index + 1}` }
    for (const [field, header] of Object.entries(map)) {
      const value = record[header]?.trim()
      if (value) (row as unknown as Record<string, string>)[field] = value
    }
    return row
  })
}

/** Output column names never collide with input columns: a clash gets an `enriched_` prefix. */
function outputName(column: string, inputHeaders: readonly string[]): string {
  return inputHeaders.includes(column) ? `enriched_${column}` : column
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
  const maxCredits = positiveNumber(options.maxCredits, '--max-credits')
  const table = readCsv(input)
  const map = mapColumns(table.headers, parseMapOptions(options.map))
  const rows = rowsFrom(table.rows, map)
  const enrichment = {
    email: options.email ?? false,
    phone: options.phone ?? false,
    catchAll: options.catchAll ?? false,
  }
  if (!enrichment.email && !enrichment.phone) enrichment.email = true
  const output = resolve(options.output)
  const context = await openContext(global, process.env, stateDirFor(global, output))
  try {
    const { manager, ledger } = managerFor(context, stateDirFor(global, output))
    const estimate = manager.estimateEnrichment(rows, enrichment)
    process.stderr.write(
      `${estimate.rows} rows: ${estimate.toSend} to send in ${estimate.chunks} request(s) ` +
        `(${estimate.duplicates} duplicate, ${estimate.known} known, ${estimate.invalid} without enough to identify); ` +
        `cost between ${estimate.minCredits} and ${estimate.maxCredits} credits.\n`,
    )
    const id = jobIdFrom(
      table.text,
      JSON.stringify(map),
      JSON.stringify(enrichment),
      context.endpointId,
      output,
    )
    const started = manager.startEnrichment({
      id,
      label: input,
      rows,
      options: enrichment,
      maxCredits,
      onUncertain: policy,
    })
    const job = await followJob(manager, started, policy)

    const byKey = new Map<string, ResultRow>()
    for (const batch of ledger.results(job.id, 0).batches)
      for (const row of batch.rows) byKey.set(row.key, row)
    const appended = [...enrichmentColumns, statusColumn, noteColumn].map((column) =>
      outputName(column, table.headers),
    )
    writeCsv(
      output,
      [...table.headers, ...appended],
      table.rows.map((record, index) => {
        const result = byKey.get(`row-${index + 1}`)
        const out: Record<string, unknown> = { ...record }
        for (const column of enrichmentColumns)
          out[outputName(column, table.headers)] = result?.data?.[column]
        out[outputName(statusColumn, table.headers)] = result?.status ?? 'pending'
        out[outputName(noteColumn, table.headers)] = result?.note
        return out
      }),
    )
    const summary = summarize(job, context, output, process.argv.slice(1).join(' '))
    printSummary(summary, global.json === true)
    return summary.exitCode
  } finally {
    await context.close()
  }
}
