import type { LeadkeeperDb } from './schema'
import type { SavedSearch, SearchResultRecord, SearchRun } from './records'

/**
 * Saved searches, the runs of every search and what each returned. Runs are keyed by their job id, so
 * the job ledger and this history describe the same thing; results are keyed by `[runId+key]`, so
 * storing a batch twice (a reload between store and acknowledge) changes nothing.
 */

export type SearchKind = SavedSearch['kind']

export async function saveSearch(
  database: LeadkeeperDb,
  input: { id?: string; kind: SearchKind; name: string; request: Record<string, unknown> },
): Promise<SavedSearch> {
  const now = Date.now()
  const existing = input.id ? await database.savedSearches.get(input.id) : undefined
  const record: SavedSearch = {
    id: existing?.id ?? input.id ?? crypto.randomUUID(),
    kind: input.kind,
    name: input.name.trim(),
    request: input.request,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  }
  await database.savedSearches.put(record)
  return record
}

export async function deleteSavedSearch(database: LeadkeeperDb, id: string): Promise<void> {
  await database.savedSearches.delete(id)
}

/** Newest first. */
export async function listSavedSearches(database: LeadkeeperDb, kind: SearchKind): Promise<SavedSearch[]> {
  const all = await database.savedSearches.where('kind').equals(kind).toArray()
  return all.sort((a, b) => b.updatedAt - a.updatedAt)
}

export async function recordRun(database: LeadkeeperDb, run: SearchRun): Promise<void> {
  await database.searchRuns.put(run)
}

export async function updateRun(
  database: LeadkeeperDb,
  id: string,
  patch: Partial<Omit<SearchRun, 'id'>>,
): Promise<void> {
  await database.searchRuns.update(id, patch)
}

/** Newest first; the runs of one saved search when `savedSearchId` is given. */
export async function listRuns(
  database: LeadkeeperDb,
  filter: { kind: SearchKind; savedSearchId?: string },
): Promise<SearchRun[]> {
  const runs = filter.savedSearchId
    ? await database.searchRuns.where('savedSearchId').equals(filter.savedSearchId).toArray()
    : await database.searchRuns.where('kind').equals(filter.kind).toArray()
  return runs.filter((run) => run.kind === filter.kind).sort((a, b) => b.startedAt - a.startedAt)
}

export async function storeResults(
  database: LeadkeeperDb,
  runId: string,
  kind: SearchKind,
  rows: readonly { key: string; data?: Record<string, unknown> }[],
): Promise<number> {
  const records: SearchResultRecord[] = rows
    .filter((row) => row.data !== undefined)
    .map((row) => ({ runId, key: row.key, kind, data: row.data! }))
  await database.searchResults.bulkPut(records)
  return database.searchResults.where('runId').equals(runId).count()
}

/** Results of several runs, run by run in the order given. */
export async function resultsOf(
  database: LeadkeeperDb,
  runIds: readonly string[],
): Promise<SearchResultRecord[][]> {
  return Promise.all(runIds.map((runId) => database.searchResults.where('runId').equals(runId).toArray()))
}
