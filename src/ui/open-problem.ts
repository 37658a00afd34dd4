import { formatBytes } from './format'

/** Why the app's database could not open, as the window tells it. */
export interface OpenProblem {
  /** `disk`: no room to write. */
  kind: 'disk' | 'other'
  title: string
  message: string
}

/** What the browser says of the app's storage (`navigator.storage.estimate()`), in bytes. */
export interface StorageRoom {
  usage: number
  quota: number
}

/** An error and those it wraps, outermost first (Dexie keeps IndexedDB's as `inner`). */
function chainOf(error: unknown): { name?: unknown; message?: unknown }[] {
  const chain: { name?: unknown; message?: unknown }[] = []
  let at: unknown = error
  for (let depth = 0; depth < 5 && at && typeof at === 'object'; depth++) {
    chain.push(at as { name?: unknown; message?: unknown })
    at = (at as { inner?: unknown }).inner
  }
  return chain
}

const errorNames = (error: unknown): unknown[] => chainOf(error).map((link) => link.name)

/** The words of the error the others wrap (Dexie's own repeat them after its name). */
function errorText(error: unknown): string {
  const words = chainOf(error)
    .map((link) => link.message)
    .filter((message): message is string => typeof message === 'string' && message.trim() !== '')
  const text = words.at(-1) ?? String(error)
  return text.trim().replace(/\.$/, '') || 'an unknown error'
}

/**
 * Whether the disk is the cause. A write past the quota fails with `QuotaExceededError`; but the
 * browser may find it only as the opening's transaction commits, abort it, and the opening then fails
 * with an `AbortError` (or the storage's own `UnknownError`) alone. The storage's room tells that
 * case: less room left than the data takes.
 */
function isDisk(error: unknown, room?: StorageRoom): boolean {
  const names = errorNames(error)
  if (names.includes('QuotaExceededError')) return true
  const tight = room !== undefined && room.quota - room.usage < room.usage
  return tight && (names.includes('AbortError') || names.includes('UnknownError'))
}

/**
 * What to tell the user when the database does not open. Nothing is lost either way: IndexedDB keeps
 * what an opening writes only once all of it is written, and the next opening starts again.
 */
export function openProblem(error: unknown, room?: StorageRoom): OpenProblem {
  if (isDisk(error, room)) {
    const size = room?.usage ? ` Your data takes ${formatBytes(room.usage)}, and less than that is left.` : ''
    return {
      kind: 'disk',
      title: 'Not enough free disk space',
      message: `Leadkeeper could not open the data kept on this computer: the disk is full.${size} Nothing was lost. Free some space, then try again.`,
    }
  }
  return {
    kind: 'other',
    title: 'Your data could not be opened',
    message: `Leadkeeper could not open the data kept on this computer: ${errorText(error)}. Nothing was changed. Try again; if it happens again, restart Leadkeeper.`,
  }
}
