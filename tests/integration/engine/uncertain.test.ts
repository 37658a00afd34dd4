import { afterEach, describe, expect, it } from 'vitest'
import type { Bed } from './harness'
import { allRows, engineFor, peopleRows, startBed } from './harness'

let bed: Bed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

const emailOnly = { email: true, phone: false, catchAll: false }

async function createdPosts(target: Bed): Promise<number> {
  const log = await target.sandbox.control.log()
  return log.requests.filter((r) => r.method === 'POST' && r.path === '/async' && r.status !== 429).length
}

describe('uncertain submissions', () => {
  for (const kind of ['status500AfterCreate', 'dropAfterCreate'] as const) {
    it(`a ${kind} POST becomes an uncertain chunk that is never re-sent by itself`, async () => {
      bed = await startBed()
      const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
      await bed.sandbox.control.setFaults([{ endpoint: 'POST /async', kind, times: 1 }])
      const engine = engineFor(bed, key, { chunkSize: 10 })
      const job = await engine.manager.settled(
        engine.manager.startEnrichment({ rows: peopleRows(30), options: emailOnly }).id,
      )
      expect(job.state).toBe('needs_attention')
      expect(job.error?.message).toMatch(/may or may not have been received/)
      expect(job.chunks.map((chunk) => chunk.state).sort()).toEqual(['done', 'done', 'uncertain'])
      expect(await createdPosts(bed)).toBe(3)
      expect(allRows(engine, job.id)).toHaveLength(20)

      const evidence = await engine.manager.uncertainEvidence(job.id)
      expect(evidence.chunks).toHaveLength(1)
      expect(evidence.chunks[0]?.balanceBefore).toBeTypeOf('number')
      expect(evidence.balanceNow).toBeTypeOf('number')
      expect(evidence.maxDoubleCharge).toBe(10)
    })
  }

  it('skip: the uncertain rows are reported as skipped and nothing is sent again', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    await bed.sandbox.control.setFaults([{ endpoint: 'POST /async', kind: 'status500AfterCreate', times: 1 }])
    const engine = engineFor(bed, key, { chunkSize: 10 })
    const first = await engine.manager.settled(
      engine.manager.startEnrichment({ rows: peopleRows(20), options: emailOnly }).id,
    )
    await engine.manager.resolveUncertain(first.id, 'skip')
    const job = await engine.manager.settled(first.id)
    expect(job.state).toBe('done')
    const rows = allRows(engine, job.id)
    expect(rows).toHaveLength(20)
    expect(rows.filter((row) => row.status === 'skipped')).toHaveLength(10)
    expect(await createdPosts(bed)).toBe(2)
  })

  it('resubmit: the chunk is sent once more, and the double charge is visible in the sandbox', async () => {
    bed = await startBed()
    const { key, accountId } = await bed.sandbox.control.createAccount({ credits: 1000 })
    await bed.sandbox.control.setFaults([{ endpoint: 'POST /async', kind: 'status500AfterCreate', times: 1 }])
    const engine = engineFor(bed, key, { chunkSize: 10 })
    const first = await engine.manager.settled(
      engine.manager.startEnrichment({ rows: peopleRows(10), options: emailOnly }).id,
    )
    expect(first.state).toBe('needs_attention')
    await engine.manager.resolveUncertain(first.id, 'resubmit')
    const job = await engine.manager.settled(first.id)
    expect(job.state).toBe('done')
    expect(job.chunks[0]?.submissions).toBe(2)
    expect(
      allRows(engine, job.id).filter((row) => row.status === 'found' || row.status === 'not_found'),
    ).toHaveLength(10)
    expect(await createdPosts(bed)).toBe(2)
    const log = await bed.sandbox.control.log()
    const requestIds = new Set(log.charges.filter((c) => c.accountId === accountId).map((c) => c.requestId))
    expect(requestIds.size).toBe(2)
  })

  it('the resubmit policy resubmits once by itself, never twice', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    await bed.sandbox.control.setFaults([{ endpoint: 'POST /async', kind: 'status500AfterCreate' }])
    const engine = engineFor(bed, key)
    const job = await engine.manager.settled(
      engine.manager.startEnrichment({ rows: peopleRows(5), options: emailOnly, onUncertain: 'resubmit' }).id,
    )
    expect(job.state).toBe('needs_attention')
    expect(await createdPosts(bed)).toBe(2)
  })

  it('a crash between intent and request id leaves an uncertain chunk on resume, never a silent resend', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const engine = engineFor(bed, key, { chunkSize: 10 })
    const job = await engine.manager.settled(
      engine.manager.startEnrichment({ rows: peopleRows(20), options: emailOnly }).id,
    )
    // Rewind the record as a crash right after writing the intent of chunk 1 would have left it.
    const record = engine.ledger.load(job.id)!
    record.chunks[1] = { ...record.chunks[1]!, state: 'submitting', requestId: undefined }
    record.state = 'running'
    engine.ledger.save(record)

    const restarted = engineFor(bed, key, { chunkSize: 10 })
    const [resumed] = restarted.manager.resumeAll()
    const after = await restarted.manager.settled(resumed!.id)
    expect(after.state).toBe('needs_attention')
    expect(after.chunks[1]?.state).toBe('uncertain')
    expect(await createdPosts(bed)).toBe(2)
  })
})
