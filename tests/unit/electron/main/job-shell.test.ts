import { describe, expect, it } from 'vitest'
import { showJobInShell } from '../../../../electron/main/job-shell'

function fakeWindow() {
  const bars: Array<{ progress: number; mode?: string }> = []
  return {
    bars,
    setProgressBar: (progress: number, options?: { mode?: string }) => {
      bars.push({ progress, mode: options?.mode })
    },
  }
}

const progress = (state: string, done: number, rows: number) => ({
  jobId: 'j',
  kind: 'enrichment',
  state,
  counts: { rows, done, found: 0, notFound: 0 },
  creditsConsumed: 0,
  estimateMax: 0,
  chunks: {},
  requestsSent: 0,
})

describe('job progress in the taskbar and dock', () => {
  it('shows the share of rows done, paused while on hold, and clears it when the job stops', () => {
    const window = fakeWindow()
    const notes: string[] = []
    showJobInShell(window, 'jobs/progress', progress('running', 25, 100), (body) => notes.push(body))
    showJobInShell(window, 'jobs/progress', progress('on_hold', 50, 100), (body) => notes.push(body))
    showJobInShell(window, 'jobs/state', { jobId: 'j', state: 'done' }, (body) => notes.push(body))
    expect(window.bars).toEqual([
      { progress: 0.25, mode: 'normal' },
      { progress: 0.5, mode: 'paused' },
      { progress: -1, mode: undefined },
    ])
    expect(notes).toEqual(['A job has finished.'])
  })

  it('notifies when a job needs a decision, not while it merely runs', () => {
    const window = fakeWindow()
    const notes: string[] = []
    showJobInShell(window, 'jobs/state', { jobId: 'j', state: 'running' }, (body) => notes.push(body))
    showJobInShell(window, 'jobs/state', { jobId: 'j', state: 'needs_attention' }, (body) => notes.push(body))
    expect(notes).toEqual(['A job needs your decision before it can go on.'])
  })
})
