import type { LocationQuery } from 'vue-router'
import type { SavedSearch, SearchRun } from '@/db/records'

export interface Opening {
  /** A saved search asked for by the address (`?saved=<id>`), its filters to load. */
  saved: SavedSearch | null
  /** The run to show: the one asked for (`?run=<id>`), else the saved search's latest, else the page's latest. */
  run: SearchRun | null
}

/**
 * What a search page shows as it opens. Start links to a saved search or a run by its address;
 * without one, the page comes back as it was left, on its latest search.
 */
export function openingOf(
  query: LocationQuery,
  kind: SearchRun['kind'],
  runs: readonly SearchRun[],
  saved: readonly SavedSearch[],
): Opening {
  const ofKind = runs.filter((run) => run.kind === kind)
  const savedId = typeof query['saved'] === 'string' ? query['saved'] : null
  const runId = typeof query['run'] === 'string' ? query['run'] : null
  const asked = savedId ? (saved.find((one) => one.id === savedId && one.kind === kind) ?? null) : null
  if (asked) return { saved: asked, run: ofKind.find((run) => run.savedSearchId === asked.id) ?? null }
  const run = (runId ? ofKind.find((one) => one.id === runId) : undefined) ?? ofKind[0] ?? null
  return { saved: null, run }
}
