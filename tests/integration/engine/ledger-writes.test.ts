import { afterEach, describe, expect, it } from 'vitest'
import { createServiceClient } from '../../../electron/engine/client/client'
import { JobLedger } from '../../../electron/engine/jobs/ledger'
import { JobManager } from '../../../electron/engine/jobs/manager'
import type { JobRecord } from '../../../electron/engine/jobs/types'
import type { Bed } from './harness'
import { allRows, peopleRows, scaledSettings, startBed } from './harness'

let bed: Bed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

/** The real ledger, counting how often the job record is written (each write is two fsyncs). */
class CountingLedger extends JobLedger {
  saves = 0

  override save(record: JobRecord): void {
    this.saves += 1
    super.save(record)
  }
}

describe('ledger writes of an enrichment', () => {
  it('writes the record three times a chunk: intent, request id, results', async () => {
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
    // Creation, running and done are the job's own; a poll answering `processing` writes nothing.
    expect(ledger.saves).toBe(3 * done.chunks.length + 3)
  })
})
