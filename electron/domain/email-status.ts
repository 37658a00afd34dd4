import statuses from '../../resources/taxonomies/email_statuses.json'

export interface EmailStatusInfo {
  value: string
  label: string
  meaning: string
  safeToSend: boolean
}

const known = new Map<string, EmailStatusInfo>(statuses.map((status) => [status.value, status]))

/** The statuses that are safe to send to, for the "safe to send" shortcut. */
export const safeEmailStatuses = statuses.filter((status) => status.safeToSend).map((status) => status.value)

/** Plain-language facts about an email status; an unknown one is called unknown, never guessed at. */
export function emailStatusInfo(value: string): EmailStatusInfo {
  const status = known.get(value.toLowerCase())
  if (status) return status
  if (value === '')
    return { value, label: 'No status', meaning: 'No email was looked up for this row.', safeToSend: false }
  return {
    value,
    label: `Unknown (${value})`,
    meaning: 'The service sent a status this app does not know.',
    safeToSend: false,
  }
}

/** Naive UI tag colour for a status. */
export function emailStatusTone(value: string): 'success' | 'warning' | 'error' | 'default' {
  const status = known.get(value.toLowerCase())
  if (!status) return 'default'
  if (status.safeToSend) return 'success'
  if (status.value === 'undeliverable' || status.value === 'catch_all_not_safe') return 'error'
  return status.value === 'not_found' ? 'default' : 'warning'
}
