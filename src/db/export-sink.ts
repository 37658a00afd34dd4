import { encodeUtf8Into } from './utf8'

/**
 * Where an export's text goes as it is written. In an export worker, a file of the origin's private
 * file system written synchronously: a Blob a page is copied to the browser process, which
 * competes with the reads of the blocks (`npm run bench -- --only browser`, the export). Elsewhere
 * (on the page, in unit tests, a browser without that file system, or one that refuses to open the
 * file), a Blob a page.
 */
export interface ExportSink {
  write(chunk: string | Uint8Array): void
  /** Everything written, as one Blob (a file on disk, or the pages' Blobs joined). */
  finish(): Promise<Blob>
  /** Gives up: what was written is removed. */
  discard(): Promise<void>
}

/** The folder of the origin's private file system an export is written in. */
export const exportFolder = 'exports'

/**
 * An export's file stays until a later export or start of the app finds it older than this: its
 * download reads it after the export has ended, and nothing tells the page when that is done (the
 * browser copies a download as it starts, in seconds). Not longer: a large export is hundreds of
 * megabytes of the app's storage, and a copy of the list's people outside the database.
 */
export const keptExportMs = 10 * 60 * 1000

/** Bytes encoded at a time: a page of long rows is written in slices, not one buffer its size. */
const sliceBytes = 4 << 20

/** The part of the file system API this uses: writing in place is only offered in dedicated workers. */
interface SyncAccess {
  write(buffer: Uint8Array, options: { at: number }): number
  flush(): void
  close(): void
}
type SyncFileHandle = FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncAccess> }

const canWriteInPlace = (): boolean =>
  typeof FileSystemFileHandle === 'function' &&
  'createSyncAccessHandle' in FileSystemFileHandle.prototype &&
  typeof navigator !== 'undefined' &&
  typeof navigator.storage?.getDirectory === 'function'

/** Blobs in memory, one a write. */
export function memorySink(type: string): ExportSink {
  let parts: Blob[] = []
  return {
    write: (chunk) => void parts.push(new Blob([chunk as string | Uint8Array<ArrayBuffer>], { type })),
    finish: async () => new Blob(parts, { type }),
    discard: async () => {
      parts = []
    },
  }
}

/** A file's name says when it was made: `<ms since 1970>-<random>.part`. */
const fileName = (now: number) => `${now}-${Math.random().toString(36).slice(2, 10)}.part`
const madeAt = (name: string) => Number(/^(\d+)-/.exec(name)?.[1] ?? 0)

async function exportsFolder(): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory()
  return root.getDirectoryHandle(exportFolder, { create: true })
}

/**
 * Removes the export files made more than `keptExportMs` ago (and any file not named as an export
 * names it). A file still open elsewhere cannot be removed: it is left for the next time.
 */
export async function removeOldExports(now = Date.now()): Promise<void> {
  if (typeof navigator === 'undefined' || typeof navigator.storage?.getDirectory !== 'function') return
  const folder = await exportsFolder()
  const old: string[] = []
  // A file made "later" than now (the clock was put back) is old too.
  for await (const name of folder.keys()) if (Math.abs(now - madeAt(name)) > keptExportMs) old.push(name)
  for (const name of old) await folder.removeEntry(name).catch(() => undefined)
}

/** How long after a start old export files are looked for: well clear of the start's own work. */
const tidyAfterMs = 30_000

/** Removes the files of old exports at an idle moment a while after a start. */
export function tidyExports(): void {
  if (typeof requestIdleCallback !== 'function') return
  setTimeout(
    () => requestIdleCallback(() => void removeOldExports().catch(() => undefined), { timeout: 10_000 }),
    tidyAfterMs,
  )
}

/** A file on disk, written in place as the export goes; null where this cannot be done here. */
async function diskSink(type: string): Promise<ExportSink | null> {
  if (!canWriteInPlace()) return null
  await removeOldExports().catch(() => undefined)
  const name = fileName(Date.now())
  let created: FileSystemDirectoryHandle | undefined
  let folder: FileSystemDirectoryHandle
  let file: SyncFileHandle
  let access: SyncAccess
  try {
    folder = await exportsFolder()
    file = (await folder.getFileHandle(name, { create: true })) as SyncFileHandle
    created = folder
    access = await file.createSyncAccessHandle()
  } catch {
    await created?.removeEntry(name).catch(() => undefined)
    return null
  }
  const buffer = new Uint8Array(sliceBytes)
  let at = 0
  let open = true
  const close = () => {
    if (open) access.close()
    open = false
  }
  const put = (bytes: Uint8Array) => {
    let written: number
    try {
      written = access.write(bytes, { at })
    } catch (error) {
      if (error instanceof DOMException && error.name === 'QuotaExceededError') throw noRoom()
      throw error
    }
    // A write cut short is a full disk too: the file must never go on with bytes missing.
    if (written !== bytes.length) throw noRoom()
    at += written
  }
  return {
    write(chunk) {
      if (typeof chunk !== 'string') return put(chunk)
      let from = 0
      while (from < chunk.length) {
        const { read, written } = encodeUtf8Into(chunk, from, buffer)
        put(buffer.subarray(0, written))
        from = read
      }
    },
    async finish() {
      access.flush()
      close()
      const written = await file.getFile()
      return new Blob([written], { type })
    },
    async discard() {
      close()
      await folder.removeEntry(name).catch(() => undefined)
    },
  }
}

function noRoom(): Error {
  return new Error(
    'There is not enough free disk space to write this export. Free some space and export it again.',
  )
}

/** The sink an export writes to: a file on disk in a worker that can, Blobs in memory otherwise. */
export async function openExportSink(type: string): Promise<ExportSink> {
  return (await diskSink(type)) ?? memorySink(type)
}

/**
 * Runs an export's writing into a new sink (`openExportSink`): what it wrote as one Blob with what
 * it returned, or, when it fails, nothing left behind and its error passed on.
 */
export async function writeExport<T>(
  type: string,
  write: (sink: ExportSink) => Promise<T>,
): Promise<{ blob: Blob; result: T }> {
  const sink = await openExportSink(type)
  try {
    const result = await write(sink)
    return { blob: await sink.finish(), result }
  } catch (error) {
    await sink.discard()
    throw error
  }
}
