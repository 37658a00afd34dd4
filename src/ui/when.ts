const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
]

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago": how long ago `at` was, in the user's words. */
export function ago(at: number, now: number = Date.now(), locale?: string): string {
  const elapsed = Math.max(0, now - at)
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  for (const [unit, size] of units) {
    if (elapsed >= size) return format.format(-Math.floor(elapsed / size), unit)
  }
  return 'just now'
}
