import { liveQuery, type Subscription } from 'dexie'
import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import type { AppError } from '@shared/result'
import type { EnrichmentEstimateView, JobView } from '@shared/contract'
import { invoke, on } from '@/bridge'
import { db, type ListRecord } from '@/db/schema'
import { deleteList, enrichmentRowsFor } from '@/db/lists'
import { useJobsStore } from './jobs'

export interface RunOptions {
  email: boolean
  phone: boolean
  catchAll: boolean
}

export interface PreparedRun {
  stagingId: string
  estimate: EnrichmentEstimateView
  /** Credits not risked thanks to duplicates and rows already known, at the highest price. */
  saved: number
}

/** Job ids are readable and unique per run: `list-<list>-run-<n>`. */
export function runJobId(list: ListRecord): string {
  return `list-${list.id}-run-${list.jobIds.length + 1}`
}

export const useListsStore = defineStore('lists', () => {
  const lists = shallowRef<ListRecord[]>([])
  let subscription: Subscription | null = null

  function watchLists(): void {
    subscription ??= liveQuery(() => db.lists.orderBy('updatedAt').reverse().toArray()).subscribe({
      next: (next) => {
        lists.value = next
      },
      error: (error: unknown) => console.error('[lists] could not read lists', error),
    })
  }

  on('jobs/state', (event) => void settleList(event.jobId, event.state))

  /** A list's state and spend follow its jobs: the sum of what every run of it consumed. */
  async function settleList(jobId: string, state: JobView['state']): Promise<void> {
    const job = await db.jobs.get(jobId)
    const listId = job?.listId
    if (!job || !listId) return
    const view = await invoke('jobs/get', { jobId })
    const others = await db.jobs
      .where('listId')
      .equals(listId)
      .filter((other) => other.jobId !== jobId)
      .toArray()
    const spent =
      others.reduce((sum, other) => sum + other.creditsConsumed, 0) +
      (view.ok ? view.data.creditsConsumed : job.creditsConsumed)
    const finished = state === 'done' || state === 'cancelled' || state === 'failed'
    await db.lists.update(listId, {
      state: finished ? 'done' : 'running',
      creditsSpent: spent,
      updatedAt: Date.now(),
    })
  }

  /** Sends the rows to the backend in batches and asks what the run may cost. Nothing is spent yet. */
  async function prepareRun(list: ListRecord, options: RunOptions): Promise<PreparedRun | AppError> {
    let stagingId: string | undefined
    let failure: AppError | null = null
    await enrichmentRowsFor(list.id, list.mapping, async (rows) => {
      if (failure || rows.length === 0) return
      const staged = await invoke('jobs/stageRows', { stagingId, rows })
      if (staged.ok) stagingId = staged.data.stagingId
      else failure = staged.error
    })
    if (failure) return failure
    if (!stagingId) return { code: 'invalid_input', message: 'This list has no rows to enrich.' }
    const estimate = await invoke('jobs/estimate', { stagingId, email: options.email, phone: options.phone })
    if (!estimate.ok) return estimate.error
    const perLead = estimate.data.toSend > 0 ? estimate.data.maxCredits / estimate.data.toSend : 0
    return {
      stagingId,
      estimate: estimate.data,
      saved: (estimate.data.duplicates + estimate.data.known) * perLead,
    }
  }

  async function startRun(
    list: ListRecord,
    prepared: PreparedRun,
    options: RunOptions,
    maxCredits: number | undefined,
  ): Promise<JobView | AppError> {
    const jobId = runJobId(list)
    const started = await invoke('jobs/startEnrichment', {
      jobId,
      stagingId: prepared.stagingId,
      label: list.name,
      options,
      maxCredits,
      onUncertain: 'ask',
    })
    if (!started.ok) return started.error
    await db.lists.update(list.id, {
      jobIds: [...list.jobIds, jobId],
      state: 'running',
      updatedAt: Date.now(),
    })
    await useJobsStore().track(started.data, { listId: list.id })
    return started.data
  }

  async function remove(listId: string): Promise<void> {
    await deleteList(listId)
  }

  return { lists, watchLists, prepareRun, startRun, remove }
})
