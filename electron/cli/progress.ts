import type { Reach } from '../engine/client/reach'
import type { JobEvent } from '../engine/jobs/events'

/**
 * Shows a job's progress on stderr: a redrawn bar on a terminal, a plain line per state change and
 * per tenth of the rows otherwise, so logs and pipes stay readable. It never writes to stdout,
 * which keeps the `--json` summary clean.
 */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr): {
  onEvent: (event: JobEvent) => void
  end: () => void
} {
  const tty = stream.isTTY === true
  let lastTenth = -1
  let drawn = false
  const onEvent = (event: JobEvent): void => {
    if (event.type === 'state') {
      if (drawn) stream.write('\n')
      drawn = false
      stream.write(`job ${event.jobId}: ${event.state}${event.error ? ` — ${event.error.message}` : ''}\n`)
      return
    }
    if (event.type !== 'progress') return
    const { rows, done, found, notFound } = event.counts
    const ratio = rows > 0 ? Math.min(1, done / rows) : 0
    const summary = `${done}/${rows} rows · ${found} found · ${notFound} not found · ${event.creditsConsumed} credits · ${event.state}`
    if (tty) {
      const width = 24
      const filled = Math.round(ratio * width)
      stream.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(ratio * 100)}% ${summary}\x1b[K`,
      )
      drawn = true
      return
    }
    const tenth = Math.floor(ratio * 10)
    if (tenth !== lastTenth) {
      lastTenth = tenth
      stream.write(`${summary}\n`)
    }
  }
  return {
    onEvent,
    end: () => {
      if (drawn) stream.write('\n')
      drawn = false
    },
  }
}

/**
 * Says on stderr, in plain words, when the service cannot be reached and when the next attempt is
 * due ("Can't reach the service — retrying in 8 s"), and when it answers again; returns the
 * unsubscribe. On a terminal the line replaces a progress bar being drawn, which the next progress
 * event draws again below it.
 */
export function reachReporter(
  reach: Reach,
  stream: { isTTY?: boolean; write(text: string): unknown } = process.stderr,
  now: () => number = Date.now,
): () => void {
  let wasUnreachable = false
  /** Many requests in flight each retry: one line until the attempt it announced, and 5 s at least. */
  let quietUntil = 0
  const say = (line: string): void => {
    stream.write(stream.isTTY === true ? `\r\x1b[K${line}\n` : `${line}\n`)
  }
  return reach.onChange((view) => {
    if (view.state === 'unreachable') {
      wasUnreachable = true
      if (view.retryAt === null || now() < quietUntil) return
      quietUntil = Math.max(view.retryAt, now() + 5_000)
      const seconds = Math.max(1, Math.ceil((view.retryAt - now()) / 1000))
      say(`Can't reach the service${view.detail ? ` (${view.detail})` : ''} — retrying in ${seconds} s`)
    } else if (wasUnreachable && view.state === 'online') {
      wasUnreachable = false
      quietUntil = 0
      say('Reached the service again; carrying on.')
    }
  })
}
