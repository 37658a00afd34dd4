import type { JobState, JobView } from '@shared/contract'

export type StatusKind =
  | 'idle'
  | 'working'
  | 'done'
  | 'on_hold_final'
  | 'on_hold'
  | 'refused_credits'
  | 'timed_out'
  | 'failed'
  | 'cancelled'
  | 'attention'
  | 'capped'

export interface RunStatus {
  kind: StatusKind
  title: string
  /** A word or two for tables. */
  short: string
  detail: string | null
  tag: 'default' | 'info' | 'success' | 'warning' | 'error'
}

const labels: Record<JobState, string> = {
  queued: 'Queued',
  running: 'Running',
  on_hold: 'On hold',
  needs_attention: 'Needs attention',
  capped: 'Stopped at the credit cap',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
}

export const stateLabel = (state: JobState): string => labels[state]

/** What a search job's state means for the user, in plain words. */
export function runStatus(view: Pick<JobView, 'state' | 'error' | 'chunkStates' | 'kind'> | null): RunStatus {
  if (!view) return { kind: 'idle', title: 'Not run yet', short: 'Not run', detail: null, tag: 'default' }
  const heldFinal = (view.chunkStates.held_final ?? 0) > 0
  switch (view.state) {
    case 'queued':
    case 'running':
      return { kind: 'working', title: 'Searching…', short: 'Running', detail: null, tag: 'info' }
    case 'done':
      return {
        kind: 'done',
        title: 'Done',
        short: 'Done',
        detail: view.error?.message ?? null,
        tag: 'success',
      }
    case 'on_hold':
      return {
        kind: 'on_hold',
        title: 'On hold: out of credits',
        short: 'On hold',
        detail:
          'The service paused this search because the balance ran out. It resumes by itself after a top-up.',
        tag: 'warning',
      }
    case 'needs_attention':
      if (view.error?.code === 'timeout')
        return {
          kind: 'timed_out',
          title: 'The search did not finish in time',
          short: 'Timed out',
          detail:
            'The service was still processing this search when the wait ran out: its search provider may be stuck. ' +
            'Keep waiting to poll the same request again (it is not sent again), or submit the search again.',
          tag: 'error',
        }
      return {
        kind: 'attention',
        title: 'Needs attention',
        short: 'Needs attention',
        detail: view.error?.message ?? null,
        tag: 'warning',
      }
    case 'failed':
      if (heldFinal)
        return {
          kind: 'on_hold_final',
          title: 'On hold: the balance could not cover a page',
          short: 'On hold',
          detail:
            'Nothing was charged for the page that went on hold, and a company search never resumes on its own: it must be submitted again. Top up, then submit it again.',
          tag: 'warning',
        }
      if (view.error?.code === 'credits')
        return {
          kind: 'refused_credits',
          title: 'Refused: out of credits',
          short: 'Refused',
          detail: `${view.error.message} Nothing was charged. Top up, then submit it again.`,
          tag: 'warning',
        }
      return {
        kind: 'failed',
        title: 'Failed',
        short: 'Failed',
        detail: view.error?.message ?? null,
        tag: 'error',
      }
    case 'cancelled':
      return { kind: 'cancelled', title: 'Cancelled', short: 'Cancelled', detail: null, tag: 'default' }
    case 'capped':
      return {
        kind: 'capped',
        title: labels.capped,
        short: 'Capped',
        detail: view.error?.message ?? null,
        tag: 'warning',
      }
  }
}
