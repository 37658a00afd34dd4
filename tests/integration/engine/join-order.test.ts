import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createServiceClient } from '../../../electron/engine/client/client'
import { RateGovernor } from '../../../electron/engine/client/governor'
import { JobLedger } from '../../../electron/engine/jobs/ledger'
import { JobManager } from '../../../electron/engine/jobs/manager'
import { scaledSettings } from './harness'
import { scriptedServer } from '../../unit/electron/engine/client/scripted-server'

let cleanup: (() => Promise<void>) | undefined
afterEach(async () => {
  await cleanup?.()
  cleanup = undefined
})

describe('joining results by key', () => {
  it('puts each returned row on its own input row even when the service reorders them and drops one', async () => {
    let submitted: { custom_fields: Record<string, string>; first_name: string }[] = []
    const server = await scriptedServer((seen) => {
      if (seen.path === '/api/v2/account')
        return { status: 200, body: { success: true, credits_left: 100, email: 'a@b.c' } }
      if (seen.method === 'POST') {
        submitted = (seen.body as { data: typeof submitted }).data
        return { status: 201, body: { success: true, id: 'req-1', message: 'ok' } }
      }
      const data = [...submitted]
        .reverse()
        .slice(1)
        .map((lead, i) => ({
          enriched: i % 2 === 0,
          contact_id: i,
          contact_first_name: lead.first_name.toLowerCase(),
          custom_fields: Object.entries(lead.custom_fields).map(([name, value], position) => ({
            name,
            value,
            position,
          })),
        }))
      return {
        status: 200,
        body: { id: 'req-1', status: 'terminated', credits_consumed: 2, credits_left: 98, data, summary: {} },
      }
    })
    const stateDir = mkdtempSync(join(tmpdir(), 'lk-join-'))
    cleanup = async () => {
      await server.close()
      rmSync(stateDir, { recursive: true, force: true })
    }
    const settings = scaledSettings()
    const client = createServiceClient({
      baseUrl: server.url,
      apiKey: 'k',
      settings,
      governor: new RateGovernor({ ceiling: 1000, windowMs: 1000 }),
    })
    const ledger = new JobLedger(stateDir)
    const manager = new JobManager({ ledger, client, settings })
    const names = ['Ada', 'Alan', 'Grace', 'Linus']
    const job = manager.startEnrichment({
      rows: names.map((name, i) => ({
        key: `k${i}`,
        first_name: name,
        last_name: 'X',
        company_domain: 'x.com',
      })),
      options: { email: true, phone: false, catchAll: false },
    })
    const done = await manager.settled(job.id)
    expect(done.state).toBe('done')
    const rows = ledger.results(job.id, 0).batches.flatMap((batch) => batch.rows)
    const byKey = new Map(rows.map((row) => [row.key, row]))
    for (const [i, name] of names.entries()) {
      const row = byKey.get(`k${i}`)
      if (i === 3) expect(row?.status).toBe('not_returned')
      else expect(row?.data?.contact_first_name).toBe(name.toLowerCase())
    }
    expect(done.creditsConsumed).toBe(2)
  })
})
