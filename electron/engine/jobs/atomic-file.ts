import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

const tempMarker = '.tmp-'

/**
 * Writes the whole file or nothing: the bytes go to a temporary sibling, are flushed to disk, and
 * the temporary file is renamed over the target. A crash at any moment leaves either the old or
 * the new content, never a torn mix; at worst a stray temporary file, which `removeStrayTempFiles` clears.
 */
export function writeFileAtomic(path: string, content: string): void {
  const temp = join(dirname(path), `${basename(path)}${tempMarker}${process.pid}-${Date.now()}`)
  const fd = openSync(temp, 'w', 0o600)
  try {
    writeSync(fd, content)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, path)
  syncDirectory(dirname(path))
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

/** Removes temporary files left by crashed writers; a live process's file may be mid-write and is left alone. */
export function removeStrayTempFiles(dir: string): void {
  for (const name of readdirSync(dir)) {
    const at = name.indexOf(tempMarker)
    if (at < 0) continue
    const pid = Number.parseInt(name.slice(at + tempMarker.length), 10)
    if (pid !== process.pid && isAlive(pid)) continue
    rmSync(join(dir, name), { force: true })
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
