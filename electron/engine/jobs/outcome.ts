import type { ChunkRecord, JobError, JobRecord, JobState } from '../../domain/jobs'

export interface RunFlags {
  cancelled: boolean
  /** An error that stopped the whole run (authentication, a bug). */
  fatal?: JobError
  /** Why submissions stopped while chunks were left unsent (credits, plan, service unreachable). */
  submitBlocked?: JobError
  /** The credit cap kept a chunk from being sent. */
  capped: boolean
}

/**
 * The state a job ends a run in, from the state of its chunks. The order matters: whatever needs
 * the caller's decision (uncertain or timed-out requests) is reported before what merely failed.
 */
export function decideOutcome(record: JobRecord, flags: RunFlags): { state: JobState; error?: JobError } {
  const { chunks } = record
  const count = (state: ChunkRecord['state']): number =>
    chunks.filter((chunk) => chunk.state === state).length
  if (flags.cancelled) return { state: 'cancelled' }
  if (flags.fatal) return { state: 'failed', error: flags.fatal }
  const uncertain = count('uncertain')
  const timedOut = count('timed_out')
  if (uncertain || timedOut) {
    const parts = []
    if (uncertain) {
      parts.push(
        `${uncertain} request(s) may or may not have been received (resubmit, which may charge twice, or skip them)`,
      )
    }
    if (timedOut)
      parts.push(`${timedOut} request(s) timed out while processing (resume to keep polling, or skip them)`)
    return {
      state: 'needs_attention',
      error: { code: uncertain ? 'outcome_unknown' : 'timeout', message: parts.join('; ') + '.' },
    }
  }
  if (flags.submitBlocked) return { state: 'failed', error: flags.submitBlocked }
  const held = chunks.find((chunk) => chunk.state === 'held_final')
  if (held) return { state: 'failed', error: held.error }
  const unsent = count('pending')
  if (flags.capped && unsent > 0) {
    return {
      state: 'capped',
      error: {
        code: 'cap',
        message: `Stopped before passing the credit cap of ${record.maxCredits}: ${unsent} request(s) not sent. Raise the cap to continue.`,
      },
    }
  }
  const failed = chunks.filter((chunk) => chunk.state === 'failed')
  if (failed.length > 0 && failed.length === chunks.length)
    return { state: 'failed', error: failed[0]?.error }
  return { state: 'done', error: failed[0]?.error }
}
