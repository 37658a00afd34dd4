import { join } from 'node:path'
import { writeFileAtomicAsync } from './atomic-file'
import { batchesOf } from './result-limits'
import type { JobRecord, ResultBatch } from '../../domain/jobs'

/**
 * The writes of one job by the run that owns it, off the event loop and in order:
 * - the record is written one save at a time; saves asked for while one is under way are merged into
 *   the next, which takes the record as it is when it starts, so every caller's promise resolves once
 *   a write that began after its call is on disk;
 * - result batches are written one after the other, and a batch counts only once the record names it.
 *
 * The caller keeps one rule: the record in memory never names what is not on disk yet (a batch, a
 * payload), since any save may write it at any moment. `appendResults` applies that rule for batches.
 */
export class JobWriter {
  private current: Promise<void> | undefined
  private queued: Promise<void> | undefined
  private batches: Promise<void> = Promise.resolve()
  private nextSeq: number

  constructor(
    private readonly dir: string,
    private readonly record: () => JobRecord,
  ) {
    this.nextSeq = record().resultSeq
  }

  /** Writes the record durably: as it is now, or as it is a little later when writes are waiting. */
  save(): Promise<void> {
    if (this.queued) return this.queued
    const previous = this.current
    const write = (async () => {
      await previous?.catch(() => undefined)
      this.queued = undefined
      await writeFileAtomicAsync(join(this.dir, 'job.json'), JSON.stringify(this.record()))
    })()
    this.queued = write
    this.current = write
    return write
  }

  /**
   * Writes a batch after every batch asked for before it, then `apply` records it in the record (its
   * sequence number, the chunk's new state, counts), then the record is saved. A crash leaves either
   * an unnamed batch file, which is ignored and overwritten, or both. A failed batch write fails every
   * later one, so the record can never name a batch after a missing one. An answer of more rows than
   * a batch holds is written as several batches in a row (`resultLimits`), named together: `apply`
   * is given the last.
   */
  async appendResults(batch: Omit<ResultBatch, 'seq' | 'at'>, apply: (seq: number) => void): Promise<number> {
    const at = Date.now()
    const stored = batchesOf(batch.rows).map((rows): ResultBatch => ({
      ...batch,
      rows,
      seq: ++this.nextSeq,
      at,
    }))
    const written = this.batches.then(async () => {
      for (const one of stored)
        await writeFileAtomicAsync(join(this.dir, `results-${one.seq}.json`), JSON.stringify(one))
    })
    this.batches = written
    await written
    const seq = stored[stored.length - 1]!.seq
    apply(seq)
    await this.save()
    return seq
  }

  /** A payload added after planning (a further company search page), in a file of its own. */
  writePayload(index: number, payload: unknown): Promise<void> {
    return writeFileAtomicAsync(join(this.dir, `payload-${index}.json`), JSON.stringify(payload))
  }
}
