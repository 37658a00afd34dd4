import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createServiceClient } from '../../../electron/engine/client/client'
import type { ServiceClient } from '../../../electron/engine/client/client'
import { JobLedger } from '../../../electron/engine/jobs/ledger'
import { JobManager } from '../../../electron/engine/jobs/manager'
import type { Bed } from './harness'
import { allRows, engineFor, peopleRows, scaledSettings, startBed } from './harness'

let bed: Bed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

const emailOnly = { email: true, phone: false, catchAll: false }

describe('the ledger on disk', () => {
  it('has the intent of every POST on disk before it leaves', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 10_000 })
    const settings = scaledSettings({ chunkSize: 10 })
    const base = createServiceClient({ baseUrl: bed.sandbox.baseUrl, apiKey: key, settings })
    const stateDir = bed.stateDir
    const jobId = 'job-intents'
    const sends = new Map<number, number>()
    const seen: string[] = []
    const client: ServiceClient = {
      ...base,
      createEnrichment: (body, options) =>
        base.createEnrichment(body, {
          beforeSend: () => {
            options?.beforeSend?.()
            // What a crash right now would leave, read by another ledger from disk only.
            const onDisk = new JobLedger(stateDir)
            const ref = Object.values(body.data[0]!.custom_fields!)[0]
            const chunk = onDisk
              .load(jobId)!
              .chunks.find((c) => onDisk.readPayload<{ ref: string }[]>(jobId, c.index)[0]!.ref === ref)!
            const times = (sends.get(chunk.index) ?? 0) + 1
            sends.set(chunk.index, times)
            seen.push(`${chunk.index}: ${chunk.state}, submission ${chunk.submissions} of ${times}`)
          },
        }),
    }
    const ledger = new JobLedger(stateDir)
    const manager = new JobManager({ ledger, client, settings })
    const job = manager.startEnrichment({ id: jobId, rows: peopleRows(120), options: emailOnly })
    const done = await manager.settled(job.id)

    expect(done.state).toBe('done')
    expect(seen).toHaveLength(12)
    expect([...seen].sort()).toEqual(
      done.chunks.map((c) => `${c.index}: submitting, submission 1 of 1`).sort(),
    )
  })

  it('resumes a job whose payloads are in the older one-file-per-chunk form', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 10_000 })
    const first = engineFor(bed, key, { chunkSize: 10 })
    const job = first.manager.startEnrichment({ rows: peopleRows(60), options: emailOnly })
    // Stopped before any POST leaves, then rewritten as an older version would have left it.
    expect((await first.manager.cancel(job.id)).chunks.every((chunk) => chunk.state === 'pending')).toBe(true)
    const jobDir = join(bed.stateDir, 'jobs', job.id)
    const lines = readFileSync(join(jobDir, 'payloads.jsonl'), 'utf8').trimEnd().split('\n')
    expect(lines).toHaveLength(6)
    lines.forEach((line, index) => writeFileSync(join(jobDir, `payload-${index}.json`), line))
    rmSync(join(jobDir, 'payloads.jsonl'))

    const second = engineFor(bed, key, { chunkSize: 10 }, 2)
    second.manager.resume(job.id)
    const done = await second.manager.settled(job.id)
    expect(done.state).toBe('done')
    const rows = allRows(second, job.id)
    expect(rows).toHaveLength(60)
    expect(rows.every((row) => row.status === 'found' || row.status === 'not_found')).toBe(true)
  })
})
