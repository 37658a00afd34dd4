import { liveQuery, type Subscription } from 'dexie'
import { defineStore } from 'pinia'
import { computed, shallowReactive, shallowRef } from 'vue'
import type { JobProgressEvent, JobState, JobView, SetAsideJob } from '@shared/contract'
import type { Result } from '@shared/result'
import { invoke, on } from '@/bridge'
import { db } from '@/db/schema'
import type { JobMirror } from '@/db/records'
import { libraryOf } from '@/db/library-client'
import { notify } from '@/ui/notify'
import { useAccountStore } from './account'
import { exclusively, jobClaim } from './window-locks'

const endedStates = new Set<JobState>(['done', 'failed', 'cancelled'])

/**
 * Live jobs and the path of their results into Dexie. Results are durable in the backend's ledger
 * before they are announced; here they are written to Dexie, and only then acknowledged, so a reload
 * (or a crash) between the two simply fetches them again. Each row is answered when the engine
 * stored its batch, so applying the same batches again changes nothing.
 */
export const useJobsStore = defineStore('jobs', () => {
  const progress = shallowReactive(new Map<string, JobProgressEvent>())
  const views = shallowReactive(new Map<string, JobView>())
  /** One ingestion at a time per job, in any window: results of one job are applied in order, never twice at once. */
  const draining = new Map<string, Promise<void>>()
  /** List runs not yet ended (running, waiting, on hold, at their cap, awaiting a decision), newest first. */
  const unfinished = shallowRef<JobMirror[]>([])
  let watching: Subscription | null = null

  function watchUnfinished(): void {
    watching ??= liveQuery(() =>
      db.jobs
        .filter((job) => job.listId !== undefined && !endedStates.has(job.state))
        .toArray()
        .then((jobs) => jobs.sort((a, b) => b.createdAt - a.createdAt)),
    ).subscribe({
      next: (next) => (unfinished.value = next),
      error: (error: unknown) => console.error('[jobs] could not read the runs', error),
    })
  }

  on('jobs/progress', (event) => {
    progress.set(event.jobId, event)
    void mirror(event.jobId, {
      state: event.state,
      counts: event.counts,
      creditsConsumed: event.creditsConsumed,
    })
  })
  on('jobs/state', (event) => {
    void refresh(event.jobId)
    // A job that ended has nothing more to send: whatever a lost results event left unstored is fetched now.
    if (event.state !== 'running') void drain(event.jobId)
    if (event.state !== 'running') useAccountStore().refresh()
  })
  on('jobs/results', (event) => void drain(event.jobId))
  on('jobs/setAside', () => void tellSetAside())

  async function refresh(jobId: string): Promise<JobView | null> {
    const result = await invoke('jobs/get', { jobId })
    if (!result.ok) return null
    views.set(jobId, result.data)
    await mirror(jobId, {
      state: result.data.state,
      counts: result.data.counts,
      creditsConsumed: result.data.creditsConsumed,
    })
    return result.data
  }

  async function mirror(
    jobId: string,
    patch: Pick<JobMirror, 'state' | 'counts' | 'creditsConsumed'>,
  ): Promise<void> {
    await db.jobs.update(jobId, { ...patch, updatedAt: Date.now() })
    const listId = (await db.jobs.get(jobId))?.listId
    if (listId) await settleList(listId)
  }

  /**
   * A list's state and spend follow its runs live: the sum of what every run of it consumed, so
   * the summary and the job card never disagree.
   */
  async function settleList(listId: string): Promise<void> {
    const runs = await db.jobs.where('listId').equals(listId).sortBy('createdAt')
    const last = runs.at(-1)
    if (!last) return
    const finished = last.state === 'done' || last.state === 'cancelled' || last.state === 'failed'
    await db.lists.update(listId, {
      state: finished ? 'done' : 'running',
      creditsSpent: runs.reduce((sum, run) => sum + run.creditsConsumed, 0),
      updatedAt: Date.now(),
    })
  }

  /** Fetches, stores and acknowledges everything of a list job not yet acknowledged. */
  function drain(jobId: string): Promise<void> {
    const previous = draining.get(jobId) ?? Promise.resolve()
    const next = previous
      .then(() => exclusively(jobClaim(jobId), () => ingest(jobId)))
      .catch((error: unknown) => {
        console.error(`[jobs] results of ${jobId} could not be stored`, error)
      })
    draining.set(jobId, next)
    return next
  }

  async function ingest(jobId: string): Promise<void> {
    const job = await db.jobs.get(jobId)
    if (!job?.listId) return
    for (;;) {
      const page = await invoke('jobs/unacknowledged', { jobId })
      if (!page.ok || page.data.batches.length === 0) return
      await libraryOf().applyResultBatches(job.listId, page.data.batches)
      await invoke('jobs/ack', { jobId, cursor: page.data.cursor })
      if (page.data.complete) return
    }
  }

  /** After a reload: pick up what arrived while no window was listening. */
  async function resumeIngestion(): Promise<void> {
    const jobs = await db.jobs.toArray()
    await Promise.all(
      jobs.map(async (job) => {
        await refresh(job.jobId)
        if (job.listId) await drain(job.jobId)
      }),
    )
  }

  /**
   * Says which job records the backend could not read and set aside. The backend hands each out once,
   * so this says it once per start, whether it is asked at start or told later.
   */
  async function tellSetAside(): Promise<void> {
    const taken = await invoke('jobs/takeSetAside')
    if (!taken.ok) return
    for (const aside of taken.data) await tellOne(aside)
  }

  async function tellOne(aside: SetAsideJob): Promise<void> {
    const job = await db.jobs.get(aside.jobId)
    const which = job?.label ? `the job “${job.label}”` : `job ${aside.jobId}`
    notify.lasting(
      'A job could not be read',
      `The record of ${which} is damaged, so that job will not resume. The record was moved to the file ` +
        'below; it says what you paid for the job, and the job’s results are in the same folder.',
      aside.movedTo,
    )
    // Left as it was, its run would show as going on for ever. A record put back by hand is read
    // again at the next start, and its run then shows as it is.
    if (job && !endedStates.has(job.state)) {
      await mirror(aside.jobId, { state: 'failed', counts: job.counts, creditsConsumed: job.creditsConsumed })
    }
  }

  async function track(view: JobView, link: Pick<JobMirror, 'listId' | 'searchRunId'>): Promise<void> {
    views.set(view.id, view)
    await db.jobs.put({
      jobId: view.id,
      kind: view.kind,
      ...link,
      label: view.label ?? '',
      state: view.state,
      counts: view.counts,
      creditsConsumed: view.creditsConsumed,
      createdAt: Date.parse(view.createdAt),
      updatedAt: Date.now(),
    })
    // A short run may have ended before it was mirrored here: catch up with where it is now.
    await refresh(view.id)
    await drain(view.id)
  }

  /** Keeps the job as the backend answered a decision on it, and hands the answer on. */
  function keep(jobId: string, result: Result<JobView>): Result<JobView> {
    if (result.ok) views.set(jobId, result.data)
    return result
  }

  const cancel = async (jobId: string) => keep(jobId, await invoke('jobs/cancel', { jobId }))
  const resume = async (jobId: string) => keep(jobId, await invoke('jobs/resume', { jobId }))
  /** A new credit cap (none: no cap) for a job that paused at its cap; it goes on with it. */
  const setCap = async (jobId: string, maxCredits: number | undefined) =>
    keep(jobId, await invoke('jobs/setCap', { jobId, maxCredits }))
  /** What is known of the chunks whose submission may or may not have reached the service. */
  const uncertainEvidence = (jobId: string) => invoke('jobs/uncertainEvidence', { jobId })
  /** The user's say on those chunks: send them again (may charge twice) or skip their rows. */
  const resolveUncertain = (jobId: string, action: 'resubmit' | 'skip') =>
    invoke('jobs/resolveUncertain', { jobId, action })

  /** The state of each list's run not yet ended, by list (the newest, should there be two). */
  const runStates = computed(() => {
    const states = new Map<string, JobMirror['state']>()
    for (const job of unfinished.value) if (!states.has(job.listId!)) states.set(job.listId!, job.state)
    return states
  })

  return {
    progress,
    views,
    unfinished,
    runStates,
    watchUnfinished,
    refresh,
    drain,
    resumeIngestion,
    tellSetAside,
    track,
    cancel,
    resume,
    setCap,
    uncertainEvidence,
    resolveUncertain,
  }
})
