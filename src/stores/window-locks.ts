/**
 * Work that one window of the app does and no other may take for abandoned, nor do at the same time.
 * The web host serves the app to any number of tabs, all on one database: a second tab opened while
 * the first adds rows to a list must not take the append back as cut off, nor discard an import
 * that goes on. A claim is a Web Lock, which the browser lets go when the window that holds it
 * closes, however it closes: what a window held then reads as cut off, as after a restart.
 *
 * Where Web Locks do not exist (a test outside a browser) there is one window: every claim is had.
 */

const prefix = 'leadkeeper:'

/** The claims this window holds, by name: how many holds of each (a claim, work under it). */
const ours = new Map<string, number>()
function hold(name: string): () => void {
  ours.set(name, (ours.get(name) ?? 0) + 1)
  let held = true
  return () => {
    if (!held) return
    held = false
    const left = ours.get(name)! - 1
    if (left === 0) ours.delete(name)
    else ours.set(name, left)
  }
}

function locks(): LockManager | null {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null
}

/**
 * The claim on a list that rows are being read into (an import, an append, an import taken up
 * again, a new list of another's rows), or copied from.
 */
export const listClaim = (listId: string): string => `list:${listId}`
/** What a window is told of a list another window holds, before what to do about it. */
export const listHeldElsewhere = 'Rows are being read into this list in a window of Leadkeeper'

/** The claim on storing a job's results (a list's run or a search's): one window stores them, in order. */
export const jobClaim = (jobId: string): string => `job:${jobId}`

/**
 * Takes the claim on `name` if no window holds it, and holds it until the returned function is
 * called (or the window closes); null when another window, or this one, holds it.
 */
export async function claim(name: string): Promise<(() => void) | null> {
  const manager = locks()
  if (!manager) return () => undefined
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  return new Promise((granted) => {
    manager
      .request(prefix + name, { ifAvailable: true }, (lock) => {
        if (!lock) {
          granted(null)
          return undefined
        }
        const letGo = hold(name)
        granted(() => {
          letGo()
          release()
        })
        return held
      })
      // Where the page cannot take a lock at all (no longer fully active), it holds no claim and
      // works as the one window.
      .catch(() => granted(() => undefined))
  })
}

/** Runs `work` once no window holds `name`, holding it meanwhile: one window at a time does it. */
export async function exclusively<T>(name: string, work: () => Promise<T>): Promise<T> {
  const manager = locks()
  if (!manager) return work()
  return manager.request(prefix + name, async () => {
    const letGo = hold(name)
    try {
      return await work()
    } finally {
      letGo()
    }
  }) as Promise<T>
}

/**
 * Runs `work` holding `name` if no window holds it: true once it ran, false (and nothing run) when
 * a window holds it.
 */
export async function ifUnclaimed(name: string, work: () => Promise<void>): Promise<boolean> {
  const manager = locks()
  if (!manager) {
    await work()
    return true
  }
  return manager.request(prefix + name, { ifAvailable: true }, async (lock) => {
    if (!lock) return false
    const letGo = hold(name)
    try {
      await work()
    } finally {
      letGo()
    }
    return true
  }) as Promise<boolean>
}

/** The claims held now: by this window, and by others. */
export async function heldClaims(): Promise<{ ours: Set<string>; elsewhere: Set<string> }> {
  const manager = locks()
  if (!manager) return { ours: new Set(), elsewhere: new Set() }
  const { held = [] } = await manager.query()
  const names = held.flatMap((lock) =>
    lock.name?.startsWith(prefix) ? [lock.name.slice(prefix.length)] : [],
  )
  return {
    ours: new Set(names.filter((name) => ours.has(name))),
    elsewhere: new Set(names.filter((name) => !ours.has(name))),
  }
}

/** Calls `then` once `name` is free: the window that held it is done, or closed. */
export function whenFree(name: string, then: () => void): void {
  const manager = locks()
  if (!manager) return
  void manager.request(prefix + name, () => undefined).then(then, () => undefined)
}
