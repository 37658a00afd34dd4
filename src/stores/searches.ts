import { defineStore } from 'pinia'
import { ref, shallowReactive, shallowRef } from 'vue'
import type { JobState, JobView } from '@shared/contract'
import type { AppError } from '@shared/result'
import { invoke, on } from '@/bridge'
import { db } from '@/db/schema'
import type {
  CompanySearchInput,
  LeadSearchInput,
  SavedSearch,
  SearchResultRecord,
  SearchRun,
} from '@/db/records'
import * as searches from '@/db/searches'
import { cacheInLibrary } from '@/db/search-cache'
import { useAccountStore } from './account'
import { plain } from '@/db/plain'
import { exclusively, jobClaim } from './window-locks'

export type { CompanySearchInput, LeadSearchInput }

export type SearchKind = 'lead' | 'company'

/** What a run stores as its request: the search as sent, and the chain of pages it belongs to. */
export type RunRequest = SearchRun['request']

/** The search to start, by kind. */
export type SearchToStart =
  { kind: 'lead'; search: LeadSearchInput } | { kind: 'company'; search: CompanySearchInput }

const finalStates: readonly JobState[] = ['done', 'failed', 'cancelled']
export const isFinal = (state: JobState) => finalStates.includes(state)

export function newJobId(): string {
  return `search-${crypto.randomUUID()}`
}

/**
 * Lead and company searches: starting them as jobs, following their state, bringing their results
 * home (Dexie first, the library next, then the acknowledgement) and keeping saved searches and history.
 */
export const useSearchesStore = defineStore('searches', () => {
  // Shallow: records are replaced, never mutated, and a reactive proxy cannot be stored in IndexedDB.
  const runs = shallowRef<SearchRun[]>([])
  const saved = shallowRef<SavedSearch[]>([])
  const views = shallowReactive(new Map<string, JobView>())
  /** Bumped whenever results of a run are stored, so result grids know to reload. */
  const resultsRevision = ref(0)
  const lastStored = shallowRef<{ runId: string; count: number } | null>(null)
  const draining = new Map<string, Promise<void>>()
  let loading: Promise<void> | null = null

  const known = (jobId: string) => runs.value.some((run) => run.id === jobId)

  on('jobs/state', (event) => {
    if (!known(event.jobId)) return
    void refreshRun(event.jobId)
    if (event.state !== 'running') void useAccountStore().refresh()
  })
  on('jobs/progress', (event) => {
    if (!known(event.jobId)) return
    patchRun(event.jobId, { state: event.state, creditsConsumed: event.creditsConsumed })
  })
  on('jobs/results', (event) => {
    if (known(event.jobId)) void drain(event.jobId)
  })

  function patchRun(runId: string, patch: Partial<SearchRun>): void {
    runs.value = runs.value.map((run) => (run.id === runId ? { ...run, ...patch } : run))
    void searches.updateRun(db, runId, patch)
  }

  /** Loads history and saved searches, and picks up results that arrived while no window listened. */
  function load(): Promise<void> {
    loading ??= (async () => {
      const [leadRuns, companyRuns, leadSaved, companySaved] = await Promise.all([
        searches.listRuns(db, { kind: 'lead' }),
        searches.listRuns(db, { kind: 'company' }),
        searches.listSavedSearches(db, 'lead'),
        searches.listSavedSearches(db, 'company'),
      ])
      runs.value = [...leadRuns, ...companyRuns].sort((a, b) => b.startedAt - a.startedAt)
      saved.value = [...leadSaved, ...companySaved]
      await Promise.all(
        runs.value.map(async (run) => {
          await refreshRun(run.id)
          await drain(run.id)
        }),
      )
    })()
    return loading
  }

  async function refreshRun(runId: string): Promise<JobView | null> {
    const result = await invoke('jobs/get', { jobId: runId })
    if (!result.ok) return null
    const view = result.data
    views.set(runId, view)
    patchRun(runId, {
      state: view.state,
      creditsConsumed: view.creditsConsumed,
      found: view.counts.rows,
      error: view.error?.message,
    })
    return view
  }

  /** One ingestion at a time per run, in any window, so batches are stored in order and never twice at once. */
  function drain(runId: string): Promise<void> {
    const previous = draining.get(runId) ?? Promise.resolve()
    const next = previous
      .then(() => exclusively(jobClaim(runId), () => ingest(runId)))
      .catch((error: unknown) => console.error(`[searches] results of ${runId} could not be stored`, error))
    draining.set(runId, next)
    return next
  }

  async function ingest(runId: string): Promise<void> {
    const run = runs.value.find((candidate) => candidate.id === runId)
    if (!run) return
    const label = run.request.label || 'Search'
    for (;;) {
      const page = await invoke('jobs/unacknowledged', { jobId: runId })
      if (!page.ok || page.data.batches.length === 0) return
      const rows = page.data.batches.flatMap((batch) => batch.rows).filter((row) => row.data)
      const count = await searches.storeResults(db, runId, run.kind, rows)
      await cacheInLibrary(
        run.kind,
        rows.map((row) => row.data!),
        { kind: run.kind === 'lead' ? 'lead_search' : 'company_search', id: runId, label, at: Date.now() },
      )
      await invoke('jobs/ack', { jobId: runId, cursor: page.data.cursor })
      patchRun(runId, { found: count })
      lastStored.value = { runId, count }
      resultsRevision.value++
      if (page.data.complete) return
    }
  }

  /** Records the run before starting the job, so events that come back at once find it. */
  async function start(
    what: SearchToStart,
    label: string,
    link: { savedSearchId?: string; chainId?: string } = {},
  ): Promise<{ runId: string; error: AppError | null }> {
    const runId = newJobId()
    const fields = {
      id: runId,
      ...(link.savedSearchId ? { savedSearchId: link.savedSearchId } : {}),
      startedAt: Date.now(),
      state: 'queued' as const,
      found: 0,
      creditsConsumed: 0,
    }
    const chainId = link.chainId ?? runId
    const run: SearchRun =
      what.kind === 'lead'
        ? { ...fields, kind: 'lead', request: { search: plain(what.search), label, chainId } }
        : { ...fields, kind: 'company', request: { search: plain(what.search), label, chainId } }
    await searches.recordRun(db, run)
    runs.value = [run, ...runs.value]
    const result =
      what.kind === 'lead'
        ? await invoke('jobs/startLeadSearch', { jobId: runId, label, search: what.search })
        : await invoke('jobs/startCompanySearch', { jobId: runId, label, search: what.search })
    if (!result.ok) {
      patchRun(runId, { state: 'failed', error: result.error.message })
      return { runId, error: result.error }
    }
    views.set(runId, result.data)
    patchRun(runId, { state: result.data.state })
    return { runId, error: null }
  }

  async function cancel(runId: string): Promise<AppError | null> {
    const result = await invoke('jobs/cancel', { jobId: runId })
    if (!result.ok) return result.error
    await refreshRun(runId)
    return null
  }

  /** Polls a timed-out request again (never re-sends it), or re-sends a company page that went on hold. */
  async function resume(runId: string): Promise<AppError | null> {
    const result = await invoke('jobs/resume', { jobId: runId })
    if (!result.ok) return result.error
    views.set(runId, result.data)
    patchRun(runId, { state: result.data.state, error: undefined })
    return null
  }

  async function save(kind: SearchKind, name: string, request: Record<string, unknown>, id?: string) {
    const record = await searches.saveSearch(db, { id, kind, name, request: plain(request) })
    saved.value = [record, ...saved.value.filter((search) => search.id !== record.id)]
    return record
  }

  async function removeSaved(id: string): Promise<void> {
    await searches.deleteSavedSearch(db, id)
    saved.value = saved.value.filter((search) => search.id !== id)
  }

  const resultsOf = (runIds: readonly string[]): Promise<SearchResultRecord[][]> =>
    searches.resultsOf(db, runIds)

  return {
    runs,
    saved,
    views,
    resultsRevision,
    lastStored,
    load,
    refreshRun,
    drain,
    start,
    cancel,
    resume,
    save,
    removeSaved,
    resultsOf,
  }
})
