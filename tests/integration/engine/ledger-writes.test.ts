import { afterEach, describe, expect, it } from 'vitest'
import { createServiceClient } from '../../../electron/engine/client/client'
import { JobWriter } from '../../../electron/engine/jobs/job-writer'
import { JobLedger } from '../../../electron/engine/jobs/ledger'
import { JobManager } from '../../../electron/engine/jobs/manager'
import type { JobRecord } from '../../../electron/domain/jobs'
import type { Bed } from './harness'
import { allRows, peopleRows, scaledSettings, startBed } from './harness'

let bed: Bed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

/** The real ledger, counting the record writes its job writers make (each write is two fsyncs). */
class CountingLedger extends JobLedger {
  writes = 0

  override writer(jobId: string, record: () => JobRecord): JobWriter {
    const writer = super.writer(jobId, record)
    const save = writer.save.bind(writer)
    const counted = new WeakSet<Promise<void>>()
    writer.save = () => {
      const saved = save()
      // Saves merged into a write that is already waiting return its promise: one write.
      if (!counted.has(saved)) {
        counted.add(saved)
        this.writes += 1
      }
      return saved
    }
    return writer
  }
}

describe('ledger writes of an enrichment', () => {
  it('writes the record at most three times a chunk: intent, request id, results', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 10_000 })
    const settings = scaledSettings({ chunkSize: 10 })
    const ledger = new CountingLedger(bed.stateDir)
    const client = createServiceClient({ baseUrl: bed.sandbox.baseUrl, apiKey: key, settings })
    const manager = new JobManager({ ledger, client, settings })
    const job = manager.startEnrichment({
      rows: peopleRows(100),
      options: { email: true, phone: false, catchAll: false },
    })
    const done = await manager.settled(job.id)

    expect(done.state).toBe('done')
    expect(allRows({ manager, ledger, settings }, job.id)).toHaveLength(100)
    // Running and done are the job's own; a poll answering `processing` writes nothing; saves asked
    // for while a write is under way share the next one.
    expect(ledger.writes).toBeGreaterThan(0)
    expect(ledger.writes).toBeLessThanOrEqual(3 * done.chunks.length + 2)
  })
})
