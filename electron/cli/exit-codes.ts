import type { ServiceErrorCode } from '../engine/client/errors'
import type { JobRecord } from '../engine/jobs/types'

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

export function exitCodeForJob(job: JobRecord): ExitCode {
  switch (job.state) {
    case 'done':
      return ExitCode.done
    case 'needs_attention':
      return ExitCode.attention
    case 'capped':
    case 'on_hold':
      return ExitCode.credits
    default:
      return exitCodeForError(job.error?.code)
  }
}

/** One sentence on what to do next, for the states that need the user. */
export function nextStep(job: JobRecord, rerun: string): string | undefined {
  switch (job.state) {
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
