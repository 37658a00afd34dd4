import { json, type Reply } from '../http'

/** Where an endpoint puts its error text. */
export type ErrorField = 'error' | 'message'

export function failure(status: number, field: ErrorField, text: string): Reply {
  return json(status, { success: false, [field]: text })
}

export function webhookUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null
  } catch {
    return null
  }
}

export function flag(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback
}

export function nonBlank(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
}
