import type { CompanySearchJob, EnrichmentJob, LeadSearchJob } from './records'

/** Every asynchronous request of a sandbox, by id; each one answers only to its own account. */
export class Jobs {
  readonly enrichments = new Map<string, EnrichmentJob>()
  readonly leadSearches = new Map<string, LeadSearchJob>()
  readonly companySearches = new Map<string, CompanySearchJob>()
  private readonly changeListeners: (() => void)[] = []

  /** Jobs paused for lack of credits that must resume once their account is credited again. */
  resumable(accountId: string): (EnrichmentJob | LeadSearchJob)[] {
    return [...this.enrichments.values(), ...this.leadSearches.values()].filter(
      (job) => job.accountId === accountId && job.status === 'on_hold',
    )
  }

  onChange(listener: () => void): void {
    this.changeListeners.push(listener)
  }

  /** Job code calls this after each step of work, so that a durable sandbox saves it. */
  changed(): void {
    for (const listener of this.changeListeners) listener()
  }
}

export function owned<T extends { accountId: string }>(
  map: Map<string, T>,
  id: string | undefined,
  accountId: string,
): T | null {
  const job = id === undefined ? undefined : map.get(id)
  return job && job.accountId === accountId ? job : null
}
