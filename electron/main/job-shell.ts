import type { BrowserWindow } from 'electron'
import type { EventName, EventPayload, JobState } from '../shared/contract'

const finishedMessages: Partial<Record<JobState, string>> = {
  done: 'A job has finished.',
  failed: 'A job has stopped with an error.',
  needs_attention: 'A job needs your decision before it can go on.',
  capped: 'A job stopped at its credit cap.',
}

/** A running job shows in the taskbar or dock; one that stops says so with a system notification. */
export function showJobInShell(
  window: Pick<BrowserWindow, 'setProgressBar'>,
  event: EventName,
  payload: unknown,
  notify: (body: string) => void,
): void {
  if (event === 'jobs/progress') {
    const { counts, state } = payload as EventPayload<'jobs/progress'>
    const active = state === 'running' || state === 'on_hold'
    window.setProgressBar(active && counts.rows > 0 ? counts.done / counts.rows : -1, {
      mode: state === 'on_hold' ? 'paused' : 'normal',
    })
  }
  if (event === 'jobs/state') {
    const message = finishedMessages[(payload as EventPayload<'jobs/state'>).state]
    if (!message) return
    window.setProgressBar(-1)
    notify(message)
  }
}
