import type { JobState } from '@shared/contract'
import type { ListState } from '@/db/records'
import type { GridTag } from '@/ui/grid-types'
import { emailStatusInfo, emailStatusTone } from '@domain/email-status'

export interface StateTag {
  label: string
  type: 'default' | 'info' | 'success' | 'warning' | 'error'
}

/** A list run's state in a word or two, with the colour of its tag: the run panel and Start agree. */
export const jobStateTags: Record<JobState, StateTag> = {
  queued: { label: 'Queued', type: 'default' },
  running: { label: 'Running', type: 'info' },
  on_hold: { label: 'On hold: out of credits', type: 'warning' },
  needs_attention: { label: 'Needs your decision', type: 'warning' },
  capped: { label: 'Stopped at the credit cap', type: 'warning' },
  done: { label: 'Done', type: 'success' },
  failed: { label: 'Failed', type: 'error' },
  cancelled: { label: 'Cancelled', type: 'default' },
}

/** A list's state as the Lists table and Start show it. */
export const listStateTags: Record<ListState, StateTag> = {
  importing: { label: 'Importing', type: 'warning' },
  ready: { label: 'Not enriched yet', type: 'default' },
  running: { label: 'Enriching', type: 'info' },
  done: { label: 'Enriched', type: 'success' },
}

/**
 * A list's tag where lists are listed (the Lists table, Start): while its run waits on the user or the
 * balance (on hold, at its cap, a decision), that run's tag, not "Enriching", as its run panel says.
 * `run` is the state of its run not yet ended, if any.
 */
export function listTag(state: ListState, run?: JobState): StateTag {
  if (state === 'running' && run && run !== 'running' && run !== 'queued') return jobStateTags[run]
  return listStateTags[state]
}

/** A list left "importing" with no import running: part of its file is stored (`lists.interrupted`). */
export const interruptedTag: StateTag = { label: 'Import interrupted', type: 'error' }

/** An email status as a grid's tag: its label, its tone, and its meaning on hover. */
export function emailStatusTag(value: string): GridTag {
  const { label, meaning } = emailStatusInfo(value)
  return { label, tone: emailStatusTone(value), tip: meaning }
}
