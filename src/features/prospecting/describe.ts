/** A short name for a search, made of its first few values, for history and list names. */
export function describeFilters(filters: Record<string, unknown>, max = 3): string {
  const parts: string[] = []
  for (const value of Object.values(filters)) {
    if (value !== null && typeof value === 'object') {
      const list = value as { include?: string[]; exclude?: string[] }
      parts.push(...(list.include ?? []), ...(list.exclude ?? []).map((item) => `not ${item}`))
    } else if (typeof value === 'boolean') continue
    else parts.push(String(value))
  }
  if (parts.length === 0) return 'Search'
  const shown = parts.slice(0, max).join(' · ')
  return parts.length > max ? `${shown} +${parts.length - max}` : shown
}
