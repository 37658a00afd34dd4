import type { JobView } from '@shared/contract'
import type { SearchRun } from '@/db/records'
import type { CompanySearchInput } from '@/features/prospecting/request'

export type CompanyRun = Extract<SearchRun, { kind: 'company' }>

export const isCompanyRun = (run: SearchRun): run is CompanyRun => run.kind === 'company'

/** The runs of one company search (its first page and every later fetch), oldest first. */
export function chainRuns(runs: readonly SearchRun[], chainId: string | null): CompanyRun[] {
  if (!chainId) return []
  return runs
    .filter(isCompanyRun)
    .filter((run) => run.request.chainId === chainId)
    .sort((a, b) => a.startedAt - b.startedAt)
}

export const searchOf = (run: CompanyRun): CompanySearchInput => run.request.search

/**
 * Offsets of the pages already fetched. A job fetches its pages one after the other from its offset,
 * so its finished pages are the first `done` ones.
 */
export function fetchedOffsets(runs: readonly CompanyRun[], views: ReadonlyMap<string, JobView>): number[] {
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
