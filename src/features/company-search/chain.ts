import type { JobView } from '@shared/contract'
import type { SearchRun } from '@/db/schema'
import type { CompanySearchInput } from '@/features/prospecting/request'
import type { RunRequest } from '@/stores/searches'

/** The runs of one company search (its first page and every later fetch), oldest first. */
export function chainRuns(runs: readonly SearchRun[], chainId: string | null): SearchRun[] {
  if (!chainId) return []
  return runs
    .filter((run) => run.kind === 'company' && (run.request as unknown as RunRequest).chainId === chainId)
    .sort((a, b) => a.startedAt - b.startedAt)
}

export const searchOf = (run: SearchRun) =>
  (run.request as unknown as RunRequest).search as CompanySearchInput

/**
 * Offsets of the pages already fetched. A job fetches its pages one after the other from its offset,
 * so its finished pages are the first `done` ones.
 */
export function fetchedOffsets(runs: readonly SearchRun[], views: ReadonlyMap<string, JobView>): number[] {
  return runs.flatMap((run) => {
    const search = searchOf(run)
    const limit = search.limit ?? 100
    const done = views.get(run.id)?.chunkStates.done ?? 0
    return Array.from({ length: done }, (_, page) => (search.offset ?? 0) + page * limit)
  })
}

/** `companies_found` as the latest answered page reported it. */
export function companiesFound(
  runs: readonly SearchRun[],
  views: ReadonlyMap<string, JobView>,
): number | null {
  for (const run of [...runs].reverse()) {
    const found = views.get(run.id)?.totalAvailable
    if (found !== undefined) return found
  }
  return null
}
