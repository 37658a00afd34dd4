import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs'
import { open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

const tempMarker = '.tmp-'

/** Temporary files this process is writing; a concurrent `removeStrayTempFiles` must leave them alone. */
const writing = new Set<string>()
let tempCounter = 0

function tempPathFor(path: string): string {
  // The pid comes first after the marker: `removeStrayTempFiles` reads it to tell a live writer from a dead one.
  return join(dirname(path), `${basename(path)}${tempMarker}${process.pid}-${Date.now()}-${++tempCounter}`)
}

/**
 * Writes the whole file or nothing: the bytes go to a temporary sibling, are flushed to disk, and
 * the temporary file is renamed over the target. A crash at any moment leaves either the old or
 * the new content, never a torn mix; at worst a stray temporary file, which `removeStrayTempFiles` clears.
 */
export function writeFileAtomic(
  path: string,
  /** In pieces, a file larger than the longest string or buffer a process can hold is written too. */
  content: string | Uint8Array | Iterable<string | Uint8Array>,
): void {
  const temp = tempPathFor(path)
  writing.add(temp)
  try {
    const fd = openSync(temp, 'w', 0o600)
    try {
      const pieces = typeof content === 'string' || content instanceof Uint8Array ? [content] : content
      for (const piece of pieces) {
        if (typeof piece === 'string') writeSync(fd, piece)
        else for (let at = 0; at < piece.length;) at += writeSync(fd, piece, at)
      }
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  } finally {
    writing.delete(temp)
  }
  syncDirectory(dirname(path))
}

/**
 * The same guarantee as `writeFileAtomic`, with the flushes off the event loop so that timers and
 * sockets go on meanwhile. Two writes of the same path must not overlap: the later rename wins,
 * whichever content it carries (`RecordWriter` runs them one at a time).
 */
export async function writeFileAtomicAsync(path: string, content: string): Promise<void> {
  const temp = tempPathFor(path)
  writing.add(temp)
  try {
    const file = await open(temp, 'w', 0o600)
    try {
      await file.writeFile(content)
      await file.sync()
    } finally {
      await file.close()
    }
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  } finally {
    writing.delete(temp)
  }
  await syncDirectoryAsync(dirname(path))
}

/** The rename itself lives in the directory entry, which needs its own flush to survive power loss. */
function syncDirectory(dir: string): void {
  let fd: number | undefined
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch {
    // Some platforms (Windows) cannot open a directory; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

async function syncDirectoryAsync(dir: string): Promise<void> {
  let handle
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // Some platforms (Windows) cannot open a directory; the rename is still atomic there.
  } finally {
    await handle?.close()
  }
}

/** Removes temporary files left by crashed writers; a live process's file may be mid-write and is left alone. */
export function removeStrayTempFiles(dir: string): void {
  for (const name of readdirSync(dir)) {
    const at = name.indexOf(tempMarker)
    if (at < 0) continue
    const path = join(dir, name)
    if (writing.has(path)) continue
    const pid = Number.parseInt(name.slice(at + tempMarker.length), 10)
    if (pid !== process.pid && isAlive(pid)) continue
    rmSync(path, { force: true })
  }
}

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
