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
