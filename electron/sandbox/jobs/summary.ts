import type { EmailStatus } from '../contacts'

interface StatusCounts {
  total: number
  valid: number
  catch_all: number
  catch_all_not_safe: number
  undeliverable: number
  not_found: number
  found: number
}

/**
 * Counts that add up: valid + catch_all + catch_all_not_safe + undeliverable + not_found = total, and
 * found = total - not_found. `valid` counts deliverable addresses; `catch_all` also counts catch_all_safe.
 */
export function countStatuses(statuses: (EmailStatus | null)[]): StatusCounts {
  const counts: StatusCounts = {
    total: statuses.length,
    valid: 0,
    catch_all: 0,
    catch_all_not_safe: 0,
    undeliverable: 0,
    not_found: 0,
    found: 0,
  }
  for (const status of statuses) {
    if (status === 'deliverable') counts.valid++
    else if (status === 'catch_all' || status === 'catch_all_safe') counts.catch_all++
    else if (status === 'catch_all_not_safe') counts.catch_all_not_safe++
    else if (status === 'undeliverable') counts.undeliverable++
    else counts.not_found++
  }
  counts.found = counts.total - counts.not_found
  return counts
}

export function enrichedCount(total: number, enriched: number): { enriched: number; not_enriched: number } {
  return { enriched, not_enriched: total - enriched }
}
