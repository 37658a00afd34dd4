import type { ServiceErrorCode } from '../engine/client/errors'
import type { JobRecord } from '../domain/jobs'

export const ExitCode = {
  done: 0,
  other: 1,
  usage: 2,
  auth: 3,
  credits: 4,
  attention: 5,
} as const
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

/** An expected failure: printed as its message (which says what to do next) with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message)
    this.name = 'CliError'
  }
}

export function exitCodeForError(code: ServiceErrorCode | string | undefined): ExitCode {
  switch (code) {
    case 'auth':
      return ExitCode.auth
    case 'credits':
    case 'plan':
    case 'cap':
      return ExitCode.credits
    case 'bad_request':
    case 'rejected':
      return ExitCode.usage
    case 'outcome_unknown':
    case 'timeout':
      return ExitCode.attention
    default:
      return ExitCode.other
  }
}

/** Whether the job gave rows up: its skipped chunks were never sent, or never waited for, on purpose. */
export function hasSkipped(job: JobRecord): boolean {
  return job.chunks.some((chunk) => chunk.state === 'skipped')
}

/**
 * Leads (enrichment) or requested results (search pages) in the skipped chunks. Duplicate rows share a
 * lead, so this is a lower bound on the rows given up; the caller counts rows from the results when it can.
 */
export function skippedLeads(job: JobRecord): number {
  return job.chunks.reduce((sum, chunk) => (chunk.state === 'skipped' ? sum + chunk.size : sum), 0)
}

export function exitCodeForJob(job: JobRecord): ExitCode {
  switch (job.state) {
    case 'done':
      // A job that gave rows up is finished but not complete: a script must not take its output as whole.
      return hasSkipped(job) ? ExitCode.attention : ExitCode.done
    case 'needs_attention':
      return ExitCode.attention
    case 'capped':
    case 'on_hold':
      return ExitCode.credits
    default:
      return exitCodeForError(job.error?.code)
  }
}

/**
 * One sentence on what to do next, for the states that need the user. `rerun` is a command that runs
 * as printed (see `rerunCommand`); `skippedRows` counts the rows given up, when the caller knows it.
 */
export function nextStep(job: JobRecord, rerun: string, skippedRows?: number): string | undefined {
  switch (job.state) {
    case 'done': {
      if (!hasSkipped(job)) return undefined
      const rows = skippedRows ?? skippedLeads(job)
      // A skipped chunk is final in its job: the same command finds it settled and sends nothing.
      return job.kind === 'enrichment'
        ? `${rows} row(s) were skipped, not enriched (Status skipped): their requests were given up while their outcome was unknown, and the service may have charged for them. The same command will not send them again; to enrich them, enrich a file of just those rows, or run again with a new output path (-o), which sends every row again.`
        : `Up to ${rows} result(s) are missing: a request was given up while its outcome was unknown. The same command will not fetch them; run it again with a new output path (-o) to search again.`
    }
    case 'needs_attention':
      return job.error?.code === 'outcome_unknown'
        ? `Run again with --on-uncertain skip (give those rows up) or --on-uncertain resubmit (may charge twice): ${rerun}`
        : `Run the same command again to keep polling the timed-out requests: ${rerun}`
    case 'capped':
      return `Raise --max-credits and run the same command again to continue: ${rerun}`
    case 'failed':
      if (job.error?.code === 'auth')
        return 'Check the API key (LEADKEEPER_API_KEY or --key-file), then run the same command again.'
      if (job.error?.code === 'credits')
        return `Top up the account, then run the same command again: ${rerun}`
      if (job.error?.code === 'plan')
        return 'Upgrade the plan or drop the option it refused (--phone, --catch-all).'
      return `Run the same command again to resume once the cause is fixed: ${rerun}`
    case 'cancelled':
      return `Run the same command again to resume: ${rerun}`
    default:
      return undefined
  }
}
