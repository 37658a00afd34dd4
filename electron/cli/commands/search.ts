import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { jobIdFrom } from '../../engine/jobs/manager'
import type { GlobalOptions } from '../context'
import { managerFor, openContext, positiveNumber, stateDirFor } from '../context'
import { writeCsv } from '../csv'
import { CliError, ExitCode } from '../exit-codes'
import { followJob } from '../run-job'
import { printSummary, rerunCommand, summarize } from '../summary'

export interface LeadsOptions {
  filters: string
  output: string
  limit?: string
  offset?: string
  maxLeads?: string
  email?: boolean
  phone?: boolean
  maxCredits?: string
}

export interface CompaniesOptions {
  filters: string
  output: string
  limit?: string
  pages?: string
  all?: boolean
  maxCredits?: string
}

function readFilters(path: string): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new CliError(
      `Cannot read filters from ${path}: ${(error as Error).message}. Give a JSON object.`,
      ExitCode.usage,
    )
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CliError(
      `${path} must hold a JSON object of filters, e.g. {"job_title": {"include": ["CTO"]}}.`,
      ExitCode.usage,
    )
  }
  return parsed as Record<string, unknown>
}

function wholeNumber(value: string | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined
  const number = Number(value)
  if (!Number.isInteger(number) || number < min)
    throw new CliError(`${flag} needs a whole number of at least ${min}.`, ExitCode.usage)
  return number
}

async function runSearch(
  kind: 'leads' | 'companies',
  start: (
    manager: ReturnType<typeof managerFor>['manager'],
    id: string,
  ) => ReturnType<ReturnType<typeof managerFor>['manager']['startLeadSearch']>,
  identity: unknown,
  outputPath: string,
  global: GlobalOptions,
): Promise<number> {
  const output = resolve(outputPath)
  const context = await openContext(global, process.env, stateDirFor(global, output))
  try {
    const { manager, ledger } = managerFor(context, stateDirFor(global, output))
    const id = jobIdFrom(kind, JSON.stringify(identity), context.endpointId, output)
    const job = await followJob(manager, start(manager, id), 'ask')
    const rows = ledger.results(job.id, 0).batches.flatMap((batch) => batch.rows.map((row) => row.data ?? {}))
    const headers = [...new Set(rows.flatMap((row) => Object.keys(row)))]
    writeCsv(output, headers, rows)
    const summary = summarize(job, context, output, rerunCommand(process.argv))
    printSummary(summary, global.json === true)
    return summary.exitCode
  } finally {
    await context.close()
  }
}

export function leadsCommand(options: LeadsOptions, global: GlobalOptions): Promise<number> {
  const search = {
    filters: readFilters(options.filters),
    limit: wholeNumber(options.limit, '--limit', 1),
    offset: wholeNumber(options.offset, '--offset', 0),
    maxLeads: wholeNumber(options.maxLeads, '--max-leads', 1),
    email: options.email ?? false,
    phone: options.phone ?? false,
  }
  const maxCredits = positiveNumber(options.maxCredits, '--max-credits')
  return runSearch(
    'leads',
    (manager, id) => manager.startLeadSearch({ id, search, maxCredits }),
    search,
    options.output,
    global,
  )
}

export function companiesCommand(options: CompaniesOptions, global: GlobalOptions): Promise<number> {
  if (options.all && options.pages)
    throw new CliError('Give either --pages N or --all, not both.', ExitCode.usage)
  const limit = wholeNumber(options.limit, '--limit', 1) ?? 100
  if (limit > 200) throw new CliError('--limit is at most 200 for a company search.', ExitCode.usage)
  const search = {
    filters: readFilters(options.filters),
    limit,
    pages: options.all ? undefined : (wholeNumber(options.pages, '--pages', 1) ?? 1),
  }
  const maxCredits = positiveNumber(options.maxCredits, '--max-credits')
  return runSearch(
    'companies',
    (manager, id) => manager.startCompanySearch({ id, search, maxCredits }),
    search,
    options.output,
    global,
  )
}
