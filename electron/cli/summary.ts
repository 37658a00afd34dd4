import type { JobRecord } from '../engine/jobs/types'
import type { CliContext } from './context'
import { exitCodeForJob, nextStep } from './exit-codes'

export interface JobSummary {
  jobId: string
  kind: JobRecord['kind']
  state: JobRecord['state']
  rows: number
  found: number
  notFound: number
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
  rerun: string,
): JobSummary {
  return {
    jobId: job.id,
    kind: job.kind,
    state: job.state,
    rows: job.counts.rows,
    found: job.counts.found,
    notFound: job.counts.notFound,
    creditsConsumed: job.creditsConsumed,
    submissions: job.requestsSent,
    requestsSent: context.requests(),
    output,
    exitCode: exitCodeForJob(job),
    error: job.error,
    next: nextStep(job, rerun),
  }
}

/** `--json`: one object on stdout (and the next step on stderr). Otherwise a short summary on stderr. */
export function printSummary(summary: JobSummary, json: boolean): void {
  if (json) {
    process.stdout.write(JSON.stringify(summary) + '\n')
    if (summary.next) process.stderr.write(summary.next + '\n')
    return
  }
  const lines = [
    `${summary.kind} job ${summary.jobId}: ${summary.state}`,
    `rows ${summary.rows} · found ${summary.found} · not found ${summary.notFound} · credits ${summary.creditsConsumed} · requests ${summary.requestsSent}`,
  ]
  if (summary.output) lines.push(`written to ${summary.output}`)
  if (summary.error && summary.state !== 'done') lines.push(summary.error.message)
  if (summary.next) lines.push(summary.next)
  process.stderr.write(lines.join('\n') + '\n')
}
