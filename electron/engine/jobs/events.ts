import type { ChunkState, JobError, JobProgress, JobRecord, JobState } from '../../domain/jobs'

export type { JobProgress }

export type JobEvent =
  | JobProgress
  | { type: 'state'; jobId: string; state: JobState; error?: JobError }
  /** A batch was written to the ledger; read it with `results(jobId, cursor)`. */
  | { type: 'results'; jobId: string; seq: number; rows: number }

export type JobListener = (event: JobEvent) => void

export function progressOf(record: JobRecord): JobProgress {
  const chunks: Partial<Record<ChunkState, number>> = {}
  for (const chunk of record.chunks) chunks[chunk.state] = (chunks[chunk.state] ?? 0) + 1
  return {
    type: 'progress',
    jobId: record.id,
    kind: record.kind,
    state: record.state,
    counts: { ...record.counts },
    creditsConsumed: record.creditsConsumed,
    estimateMax: record.estimateMax,
    chunks,
    requestsSent: record.requestsSent,
  }
}

/**
 * Fans events out to listeners. Progress is throttled per job (the UI cannot use more than a few
 * frames a second); the latest progress is always delivered, trailing the burst that caused it.
 * State and results events are never dropped.
 */
export class JobEventBus {
  private readonly listeners = new Set<JobListener>()
  private readonly lastSent = new Map<string, number>()
  private readonly pending = new Map<string, { record: JobRecord; timer: NodeJS.Timeout }>()

  constructor(private readonly minIntervalMs: number) {}

  subscribe(listener: JobListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit(event: JobEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch {
        // A failing listener must not break the job or starve the other listeners.
      }
    }
  }

  progress(record: JobRecord, force = false): void {
    const now = Date.now()
    const waiting = this.pending.get(record.id)
    const elapsed = now - (this.lastSent.get(record.id) ?? 0)
    if (force || elapsed >= this.minIntervalMs) {
      if (waiting) clearTimeout(waiting.timer)
      this.pending.delete(record.id)
      this.lastSent.set(record.id, now)
      this.emit(progressOf(record))
      return
    }
    if (waiting) {
      waiting.record = record
      return
    }
    const timer = setTimeout(() => {
      const latest = this.pending.get(record.id)
      this.pending.delete(record.id)
      if (!latest) return
      this.lastSent.set(record.id, Date.now())
      this.emit(progressOf(latest.record))
    }, this.minIntervalMs - elapsed)
    timer.unref?.()
    this.pending.set(record.id, { record, timer })
  }
}
