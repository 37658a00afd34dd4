/** Rows of several pages or runs, each kept once by key, first occurrence first. */
export function uniqueByKey<T extends { key: string }>(batches: readonly (readonly T[])[]): T[] {
  const seen = new Set<string>()
  const rows: T[] = []
  for (const batch of batches) {
    for (const row of batch) {
      if (seen.has(row.key)) continue
      seen.add(row.key)
      rows.push(row)
    }
  }
  return rows
}

/** A company's identity across pages and runs: its id when the service gives one, else its domain. */
export function companyIdentity(data: Record<string, unknown>): string {
  if (data['company_id'] !== null && data['company_id'] !== undefined)
    return `company-${String(data['company_id'])}`
  const domain = typeof data['company_domain'] === 'string' ? data['company_domain'].toLowerCase() : ''
  return domain ? `domain-${domain}` : `name-${String(data['company_name'] ?? '')}`
}
