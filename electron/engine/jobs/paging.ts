import type { SearchBody as SearchPayload } from '../../shared/requests'
import type { ChunkRecord, JobRecord } from '../../domain/jobs'

/**
 * The next company search page after `page` terminated with `returned` companies out of `found`:
 * same `limit`, `offset` raised by `limit`, until the matches or the pages asked for run out.
 * An empty page also ends the search, so a service that keeps reporting matches cannot loop us.
 */
export function nextCompanyPage(
  record: Pick<JobRecord, 'chunks' | 'search'>,
  page: ChunkRecord,
  payload: SearchPayload,
  returned: number,
  found: number,
): { chunk: ChunkRecord; payload: SearchPayload } | undefined {
  const limit = payload.limit ?? 100
  const offset = (payload.offset ?? 0) + limit
  const wantedPages = record.search?.pages ?? Number.POSITIVE_INFINITY
  const laterPagePlanned = page.index !== record.chunks.length - 1
  if (laterPagePlanned || returned === 0 || offset >= found || record.chunks.length >= wantedPages)
    return undefined
  return {
    chunk: {
      index: record.chunks.length,
      state: 'pending',
      size: Math.min(limit, found - offset),
      offset,
      submissions: 0,
    },
    payload: { ...payload, offset },
  }
}

/** Pages a company search will fetch in all, once the number of matches is known. */
export function companyPageCount(search: JobRecord['search'], found: number): number {
  const limit = search?.limit ?? 100
  const available = Math.max(0, found - Math.max(0, search?.offset ?? 0))
  return Math.min(search?.pages ?? Number.POSITIVE_INFINITY, Math.max(1, Math.ceil(available / limit)))
}
