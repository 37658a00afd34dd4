import { randomBytes } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'

export function warn(message: string): void {
  process.stderr.write(`[sandbox] ${message}\n`)
}

/**
 * Replaces `file` with `text` so that a crash at any moment leaves either the old or the new content.
 * The state holds every lead a user submitted and the demo key: it is readable by its owner alone,
 * and its temporary sibling has a name nobody can guess and plant a link at beforehand.
 */
export async function writeAtomic(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}-${randomBytes(8).toString('hex')}.tmp`
  try {
    const handle = await open(temp, 'wx', 0o600)
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  await syncDirectory(dirname(file))
}

/** Makes the rename itself durable where the platform allows a directory to be synced. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // Windows cannot open a directory for syncing; the rename is as durable as that platform makes it.
  }
}

/** Renames an unusable state file to `<file>.<reason>-<timestamp>` so it is kept for a look but never read. */
export async function setAside(file: string, reason: string): Promise<string | null> {
  const target = `${file}.${reason}-${new Date().toISOString().replace(/[:.]/g, '-')}`
  try {
    await rename(file, target)
    return target
  } catch (error) {
    warn(`could not set ${file} aside: ${(error as Error).message}`)
    return null
  }
}

/** Writes the latest state at most once per `delayMs`, one write at a time, and once more on close. */
export class DebouncedWriter {
  private timer: NodeJS.Timeout | null = null
  private writing: Promise<void> = Promise.resolve()
  private closed = false

  constructor(
    private readonly file: string,
    private readonly serialize: () => string,
    private readonly delayMs: number,
  ) {}

  schedule(): void {
    if (this.timer || this.closed) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.write()
    }, this.delayMs)
  }

  /** Writes now what a pending save would write later; nothing when nothing changed. */
  flush(): Promise<void> {
    if (this.closed || !this.timer) return this.writing
    clearTimeout(this.timer)
    this.timer = null
    return this.write()
  }

  async close(): Promise<void> {
    if (this.closed) return this.writing
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.write()
  }

  private write(): Promise<void> {
    // Serialized now, so the file holds one consistent moment even if an earlier write is still running.
    // This runs in a timer: a throw would end the process that embeds the sandbox, so it is reported.
    let text: string
    try {
      text = this.serialize()
    } catch (error) {
      warn(`could not save ${this.file}: ${(error as Error).message}`)
      return this.writing
    }
    this.writing = this.writing
      .then(() => writeAtomic(this.file, text))
      .catch((error: Error) => warn(`could not save ${this.file}: ${error.message}`))
    return this.writing
  }
}
