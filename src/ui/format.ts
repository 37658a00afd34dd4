const numbers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 })

/** A count or a credit amount as the user's locale writes it: 12,345 or 0.1. */
export const formatNumber = (value: number): string => numbers.format(value)

/** A size in bytes as people read it: 812 B, 4.2 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`
}

const dayThisYear = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' })
const dayOtherYear = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' })

/** A day as a sentence says it: "3 Nov", with its year when it is not this year's ("3 Nov 2025"). */
export function formatDay(at: number, now: number = Date.now()): string {
  const sameYear = new Date(at).getFullYear() === new Date(now).getFullYear()
  return (sameYear ? dayThisYear : dayOtherYear).format(at)
}
