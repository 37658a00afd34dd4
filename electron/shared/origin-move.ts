/**
 * Moving the user's data from the origin the renderer had under file:// to `app://bundle`.
 * IndexedDB and localStorage belong to an origin, so the desktop app's lists and library stayed
 * behind when the page moved: a hidden window on a file:// page reads them (the source), main relays
 * each piece to the app's window, which writes them into its own origin (the sink) before it opens
 * its database. A shell matter, not the backend's: the web host never moves anything, so these
 * channels are apart from the contract and exist only in the desktop app. No validation library
 * here: the preloads import this file; main checks what it relays (electron/main/origin-move.ts).
 */

/** An index of an object store, as IndexedDB describes it. */
export interface IndexShape {
  name: string
  keyPath: string | string[]
  unique: boolean
  multiEntry: boolean
}

export interface StoreShape {
  name: string
  keyPath: string | string[] | null
  autoIncrement: boolean
  indexes: IndexShape[]
  /** Records in the store when it was read. */
  count: number
}

export interface DatabaseShape {
  name: string
  /** IndexedDB's own version number (Dexie writes its version × 10): recreated as it is. */
  version: number
  stores: StoreShape[]
}

/** Everything the old origin holds that the app uses. */
export interface OriginSurvey {
  databases: DatabaseShape[]
  /** The app's localStorage entries (keys starting with `leadkeeper.`). */
  localStorage: Array<[string, string]>
}

/** A page of a store's records in key order: `after` is the last key of the previous page. */
export interface PageRequest {
  database: string
  store: string
  /** Absent for the first page; an IndexedDB key (checked where it is used). */
  after?: unknown
}

/** A record with its primary key (an IndexedDB key: checked where it is used). */
export interface StoredRecord {
  key: unknown
  value: unknown
}

export interface RecordPage {
  records: StoredRecord[]
  /** No record after this page. */
  last: boolean
}

export type SourceRequest = { kind: 'survey' } | ({ kind: 'page' } & PageRequest)
export type SourceAnswer =
  { ok: true; survey: OriginSurvey } | { ok: true; page: RecordPage } | { ok: false; message: string }

/** Records per store of each database: what the sink wrote, compared with the survey's counts. */
export type StoreCounts = Record<string, Record<string, number>>

export function surveyCounts(survey: {
  databases: Array<{ name: string; stores: Array<{ name: string; count: number }> }>
}): StoreCounts {
  return Object.fromEntries(
    survey.databases.map((database) => [
      database.name,
      Object.fromEntries(database.stores.map((store) => [store.name, store.count])),
    ]),
  )
}

/** Every store of every database holds as many records as the source had: nothing more, nothing less. */
export function sameCounts(expected: StoreCounts, found: StoreCounts): boolean {
  const names = (counts: Record<string, unknown>) => Object.keys(counts).sort().join('\u0000')
  if (names(expected) !== names(found)) return false
  return Object.entries(expected).every(([database, stores]) => {
    const other = found[database]
    return (
      other !== undefined &&
      names(stores) === names(other) &&
      Object.entries(stores).every(([store, count]) => other[store] === count)
    )
  })
}

/** What main answers when the app's window asks whether a move is needed. */
export type MoveStart = { move: false } | { move: true }

/** The app window's side of the move, exposed by the preload as `window.leadkeeperShell.originMove`. */
export interface OriginMoveHost {
  start(): Promise<MoveStart>
  read(request: SourceRequest): Promise<SourceAnswer>
  /** The destination's counts: main marks the move done only when they equal the source's. */
  finish(counts: StoreCounts): Promise<{ ok: true } | { ok: false; message: string }>
  fail(message: string): Promise<void>
}

export const originMoveChannels = {
  start: 'originMove/start',
  read: 'originMove/read',
  finish: 'originMove/finish',
  fail: 'originMove/fail',
  /** Main → the hidden window: `{ id, request }`. */
  sourceRequest: 'originMove/sourceRequest',
  /** The hidden window → main: `{ id, answer }`. */
  sourceAnswer: 'originMove/sourceAnswer',
} as const

/** The invoke channels the app's window may call. */
export const originMoveInvokeChannels = [
  originMoveChannels.start,
  originMoveChannels.read,
  originMoveChannels.finish,
  originMoveChannels.fail,
] as const

/** The page the hidden window loads: empty, no scripts; only its origin (file://) matters. */
export const originSourcePage = 'origin-source.html'
