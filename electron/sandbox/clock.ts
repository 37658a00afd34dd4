/** Owns every timer of a sandbox so that close() leaves nothing running, and applies the time scale. */
export class Clock {
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly sleepers = new Set<() => void>()
  private closed = false

  constructor(readonly timeScale: number) {}

  scaled(ms: number): number {
    return Math.max(0, Math.round(ms * this.timeScale))
  }

  /** Runs `fn` after `ms` scaled milliseconds. */
  after(ms: number, fn: () => void): void {
    this.afterRaw(this.scaled(ms), fn)
  }

  /** Runs `fn` at the epoch time `deadline`, at once if it has passed (e.g. while the sandbox was down). */
  at(deadline: number, fn: () => void): void {
    this.afterRaw(Math.max(0, deadline - Date.now()), fn)
  }

  /** Runs `fn` after exactly `ms` milliseconds, for delays the time scale must not touch. */
  afterRaw(ms: number, fn: () => void): void {
    if (this.closed) return
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      if (this.closed) return
      // A timer runs outside any request: a throw here would end the process that embeds the
      // sandbox (the desktop app's main process), so it is reported and the sandbox goes on.
      try {
        fn()
      } catch (error) {
        process.stderr.write(`[sandbox] a scheduled step failed: ${(error as Error).message}\n`)
      }
    }, ms)
    this.timers.add(timer)
  }

  /** Waits exactly `ms` milliseconds; a close() ends the wait early so no handler hangs. */
  sleepRaw(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve()
      const timer = setTimeout(() => {
        this.timers.delete(timer)
        this.sleepers.delete(resolve)
        resolve()
      }, ms)
      this.timers.add(timer)
      this.sleepers.add(resolve)
    })
  }

  sleep(ms: number): Promise<void> {
    return this.sleepRaw(this.scaled(ms))
  }

  get isClosed(): boolean {
    return this.closed
  }

  close(): void {
    this.closed = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    for (const wake of this.sleepers) wake()
    this.sleepers.clear()
  }
}
