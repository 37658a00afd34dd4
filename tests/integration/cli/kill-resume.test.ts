import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { seededRandom } from '../../../electron/engine/client/clock'
import { JobLedger } from '../../../electron/engine/jobs/ledger'
import type { CliBed } from './harness'
import { finished, peopleCsv, runCli, serviceEnv, spawnCli, startCliBed } from './harness'

let bed: CliBed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe('kill -9 at random moments, then resume', () => {
  it('ends with the same output as an undisturbed run and no extra charge beyond explicit resubmissions', async () => {
    // Slow leads (50 ms each once scaled) and small chunks, so that a run spans many kill points.
    // A resubmitted chunk asks its people a second time: without movers, a second answer is the first,
    // so the two outputs compare.
    bed = await startCliBed({ leadWorkMs: 5000, moverShare: 0 })
    const control = bed.sandbox.control
    const disturbed = await control.createAccount({ credits: 100_000 })
    const calm = await control.createAccount({ credits: 100_000 })
    const dir = bed.dir
    const input = join(dir, 'in.csv')
    writeFileSync(input, peopleCsv(400))
    const args = (output: string, policy: string) => [
      '--chunk-size',
      '5',
      'enrich',
      input,
      '-o',
      join(dir, output),
      '--on-uncertain',
      policy,
    ]

    const reference = await runCli(args('calm.csv', 'ask'), serviceEnv(bed, calm.key))
    expect(reference.code, reference.stderr).toBe(0)

    const random = seededRandom(20261121)
    let kills = 0
    for (let round = 0; round < 20; round++) {
      const seenBefore = (await control.log()).requests.filter((r) => r.key === disturbed.key).length
      const child = spawnCli(args('disturbed.csv', 'ask'), serviceEnv(bed, disturbed.key))
      const exit = finished(child)
      let exited = false
      void exit.then(() => (exited = true))
      // Wait for this run to reach the service, then let it work for a random while before killing it.
      while (
        !exited &&
        (await control.log()).requests.filter((r) => r.key === disturbed.key).length === seenBefore
      ) {
        await sleep(15)
      }
      await sleep(Math.floor(random() * 200))
      if (exited) break
      child.kill('SIGKILL')
      const result = await exit
      expect(result.signal).toBe('SIGKILL')
      kills++
    }
    expect(kills).toBeGreaterThanOrEqual(15)

    // Uncertain chunks (killed between intent and request id) are resubmitted only on this explicit choice.
    const last = await runCli(args('disturbed.csv', 'resubmit'), serviceEnv(bed, disturbed.key))
    expect(last.code, last.stderr).toBe(0)
    expect(readFileSync(join(bed.dir, 'disturbed.csv'), 'utf8')).toBe(
      readFileSync(join(bed.dir, 'calm.csv'), 'utf8'),
    )

    const ledger = new JobLedger(join(bed.dir, '.leadkeeper-state'))
    const jobs = ledger.list()
    expect(jobs).toHaveLength(2)
    const log = await control.log()
    const createdFor = (key: string) =>
      log.requests.filter(
        (r) => r.key === key && r.method === 'POST' && r.path === '/async' && r.status === 201,
      ).length
    const recorded = new Set(jobs.flatMap((record) => record.chunks.map((c) => c.requestId)).filter(Boolean))
    const chargesOf = (accountId: string) => log.charges.filter((c) => c.accountId === accountId)
    const orphanCharges = chargesOf(disturbed.accountId).filter((c) => !recorded.has(c.requestId))
    const resubmitted = jobs.flatMap((record) => record.chunks).filter((c) => c.submissions > 1).length
    const total = (entries: { credits: number }[]) => entries.reduce((sum, c) => sum + c.credits, 0)

    expect(createdFor(calm.key)).toBe(80)
    expect(createdFor(disturbed.key)).toBeLessThanOrEqual(80 + resubmitted)
    expect(new Set(orphanCharges.map((c) => c.requestId)).size).toBeLessThanOrEqual(resubmitted)
    expect(total(chargesOf(disturbed.accountId)) - total(orphanCharges)).toBeCloseTo(
      total(chargesOf(calm.accountId)),
      5,
    )
  }, 180_000)
})
