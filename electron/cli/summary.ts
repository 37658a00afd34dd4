import { basename, extname, isAbsolute, relative, sep } from 'node:path'
import type { JobRecord } from '../domain/jobs'
import type { ListRow } from '../domain/row'
import type { CliContext } from './context'
import { exitCodeForJob, hasSkipped, nextStep, skippedLeads } from './exit-codes'

/**
 * Counted in rows (of the input file for `enrich`) unless the name says people: the same
 * definitions as the app's estimate and summary, and they add up: found + notFound + invalid +
 * skipped + failed + pending = rows.
 */
export interface JobSummary {
  jobId: string
  kind: JobRecord['kind']
  state: JobRecord['state']
  rows: number
  /** Enrichment: the rows sent (a person named by two rows is two rows, asked once). */
  sent?: number
  /** Enrichment: the people asked of the service. */
  people?: number
  found: number
  notFound: number
  /** Enrichment: rows that name nobody the service can look up, not sent. */
  invalid?: number
  /** Enrichment: rows whose request failed or came back without them. */
  failed?: number
  /** Enrichment: rows not done yet (the job stopped before them). */
  pending?: number
  /** Rows given up (status `skipped`): not enriched, though the service may have charged for them. */
  skipped: number
  creditsConsumed: number
  submissions: number
  requestsSent: number
  output?: string
  exitCode: number
  error?: JobRecord['error']
  next?: string
}

export function summarize(
  job: JobRecord,
  context: CliContext,
  output: string | undefined,
  /** A command that runs this one again as printed: `rerunCommand(process.argv)`. */
  rerun: string,
  /**
   * Output rows whose status is `skipped`. Without it the skipped chunks' leads are counted, which
   * misses the duplicates of a skipped lead.
   */
  skippedRows?: number,
  /** Enrichment: what became of every row of the file, counted from the output. */
  list?: ListCounts,
): JobSummary {
  const skipped = list ? list.skipped : hasSkipped(job) ? (skippedRows ?? skippedLeads(job)) : 0
  return {
    jobId: job.id,
    kind: job.kind,
    state: job.state,
    rows: list?.rows ?? job.counts.rows,
    ...(list ? { sent: list.sent, people: list.people } : {}),
    found: list?.found ?? job.counts.found,
    notFound: list?.notFound ?? job.counts.notFound,
    ...(list ? { invalid: list.invalid, failed: list.failed, pending: list.pending } : {}),
    skipped,
    creditsConsumed: job.creditsConsumed,
    submissions: job.requestsSent,
    requestsSent: context.requests(),
    output,
    exitCode: exitCodeForJob(job),
    error: job.error,
    next: nextStep(job, rerun, skipped),
  }
}

export interface ListCounts {
  rows: number
  sent: number
  people: number
  found: number
  notFound: number
  invalid: number
  skipped: number
  failed: number
  pending: number
}

/** What became of the rows of a file, from their final status. */
export function listCounts(
  rows: readonly Pick<ListRow, 'status'>[],
  sent: number,
  people: number,
): ListCounts {
  const counts: ListCounts = {
    rows: rows.length,
    sent,
    people,
    found: 0,
    notFound: 0,
    invalid: 0,
    skipped: 0,
    failed: 0,
    pending: 0,
  }
  for (const { status } of rows) {
    if (status === 'found') counts.found++
    else if (status === 'not_found') counts.notFound++
    else if (status === 'invalid') counts.invalid++
    else if (status === 'skipped') counts.skipped++
    else if (status === 'failed' || status === 'not_returned') counts.failed++
    else counts.pending++
  }
  return counts
}

/** `--json`: one object on stdout (and the next step on stderr). Otherwise a short summary on stderr. */
export function printSummary(summary: JobSummary, json: boolean): void {
  if (json) {
    process.stdout.write(JSON.stringify(summary) + '\n')
    if (summary.next) process.stderr.write(summary.next + '\n')
    return
  }
  const some = (label: string, count: number | undefined) => (count ? [`${label} ${count}`] : [])
  const counts = [
    `rows ${summary.rows}`,
    ...(summary.sent !== undefined ? [`sent ${summary.sent} (${summary.people ?? 0} people)`] : []),
    `found ${summary.found}`,
    `not found ${summary.notFound}`,
    // Only when there are some, so that a complete job's line stays short.
    ...some('invalid', summary.invalid),
    ...some('skipped', summary.skipped),
    ...some('failed', summary.failed),
    ...some('pending', summary.pending),
    `credits ${summary.creditsConsumed}`,
    `requests ${summary.requestsSent}`,
  ]
  const lines = [`${summary.kind} job ${summary.jobId}: ${summary.state}`, counts.join(' · ')]
  if (summary.output) lines.push(`written to ${summary.output}`)
  if (summary.error && summary.state !== 'done') lines.push(summary.error.message)
  if (summary.next) lines.push(summary.next)
  process.stderr.write(lines.join('\n') + '\n')
}

/** Characters a POSIX shell takes literally in a word (not first in the command, so `=` is safe). */
const plainWord = /^[A-Za-z0-9_./=:@%+,-]+$/

/** One argument as a POSIX shell word: as is when plain, else single-quoted with `'\''` for each quote. */
export function shellQuote(argument: string): string {
  if (plainWord.test(argument)) return argument
  return `'${argument.replaceAll("'", `'\\''`)}'`
}

/**
 * The command line of this invocation as a shell-ready command, for advice to run it again: the way the
 * CLI was started (`npx tsx <script>` from the sources, `leadkeeper` when installed), then the
 * arguments, each quoted when the shell would otherwise change it. `argv` is `process.argv`.
 */
export function rerunCommand(argv: readonly string[], cwd: string = process.cwd()): string {
  return [launcher(argv[1] ?? '', cwd), ...argv.slice(2).map(shellQuote)].join(' ')
}

function launcher(script: string, cwd: string): string {
  const slashed = script.replaceAll('\\', '/')
  // The built bin, under its own name or through npm's link to out/cli/index.js.
  if (
    slashed === '' ||
    slashed.endsWith('out/cli/index.js') ||
    /^leadkeeper(\.[a-z]+)?$/i.test(basename(slashed))
  )
    return 'leadkeeper'
  // From the working directory the relative path is what the user typed (and shorter); outside, absolute.
  const fromCwd = relative(cwd, script)
  const inside = fromCwd !== '' && fromCwd !== '..' && !fromCwd.startsWith(`..${sep}`) && !isAbsolute(fromCwd)
  const path = shellQuote(inside ? fromCwd : script)
  // The sources (electron/cli/index.ts) run through tsx, as `npm run cli` does.
  return extname(slashed) === '.ts' ? `npx tsx ${path}` : `node ${path}`
}
