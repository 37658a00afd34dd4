import type { KindAdapter } from './adapters'
import type { JobEventBus } from './events'
import type { JobWriter } from './job-writer'
import type { JobLedger } from './ledger'
import { move, now } from './run-common'
import { tallyFound } from '../../domain/found'
import type { ChunkRecord, JobError, JobRecord, ResultRow, RowStatus } from '../../domain/jobs'

/** What a run's results side reads and calls on its run. */
export interface ResultsContext {
  /** The run's record as it is now. */
  record: () => JobRecord
  ledger: Pick<JobLedger, 'readPayload'>
  writer: Pick<JobWriter, 'appendResults'>
  bus: Pick<JobEventBus, 'emit' | 'progress'>
  adapter: Pick<KindAdapter, 'callerRows'>
}

/** Puts a run's result batches on disk, then tells: a chunk's end is in the record only once its rows' results are. */
export class RunResults {
  constructor(private readonly ctx: ResultsContext) {}

  private get record(): JobRecord {
    return this.ctx.record()
  }

  /** The chunk is `skipped` in the record only once its rows' results are on disk. */
  async skipChunk(chunk: ChunkRecord, note: string): Promise<void> {
    if (!this.ctx.adapter.callerRows) {
      move(chunk, 'skip')
      return
    }
    await this.writeResults(
      chunk.index,
      this.rowKeysOf(chunk).map((key) => ({ key, status: 'skipped', note })),
      () => move(chunk, 'skip'),
    )
  }

  /** The chunk is `failed` in the record only once its rows' results are on disk. */
  async failChunk(chunk: ChunkRecord, failure: JobError): Promise<void> {
    chunk.error = failure
    if (!this.ctx.adapter.callerRows) {
      move(chunk, 'fail')
      return
    }
    await this.writeResults(
      chunk.index,
      this.rowKeysOf(chunk).map((key) => ({ key, status: 'failed', note: failure.message })),
      () => move(chunk, 'fail'),
    )
  }

  private rowKeysOf(chunk: ChunkRecord): string[] {
    return this.ctx.ledger
      .readPayload<{ rowKeys: string[] }[]>(this.record.id, chunk.index)
      .flatMap((lead) => lead.rowKeys)
  }

  /**
   * Results reach the ledger before anyone is told about them. `apply` changes the record to match
   * (the chunk's new state): it runs once the batch is on disk, and the record is saved after it.
   */
  async writeResults(chunkIndex: number | null, rows: ResultRow[], apply: () => void): Promise<void> {
    const counted: Partial<Record<RowStatus, number>> = {}
    for (const row of rows) counted[row.status] = (counted[row.status] ?? 0) + 1
    const seq = await this.ctx.writer.appendResults({ chunkIndex, rows }, (written) => {
      apply()
      this.record.resultSeq = written
      this.record.updatedAt = now()
      this.record.counts.done += rows.length
      this.record.counts.found += counted.found ?? 0
      this.record.counts.notFound += counted.not_found ?? 0
      tallyFound(this.record.counts, rows)
    })
    this.ctx.bus.emit({ type: 'results', jobId: this.record.id, seq, rows: rows.length })
    this.ctx.bus.progress(this.record)
  }
}
