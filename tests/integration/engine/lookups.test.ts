import { afterEach, describe, expect, it } from 'vitest'
import { createServiceClient } from '../../../electron/engine/client/client'
import { ServiceError } from '../../../electron/engine/client/errors'
import { RateGovernor } from '../../../electron/engine/client/governor'
import type { Bed } from './harness'
import { scaledSettings, startBed } from './harness'

let bed: Bed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

function clientFor(target: Bed, apiKey: string) {
  const settings = scaledSettings({ maxAttempts: 3 })
  return createServiceClient({
    baseUrl: target.sandbox.baseUrl,
    apiKey,
    settings,
    governor: new RateGovernor({ ceiling: settings.rateLimitPerMinute, windowMs: settings.rateWindowMs }),
  })
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  return error instanceof ServiceError ? error.code : `no ServiceError: ${String(error)}`
}

describe('synchronous endpoints against the sandbox', () => {
  it('reads the account balance and email', async () => {
    bed = await startBed()
    const { key, email } = await bed.sandbox.control.createAccount({ credits: 42 })
    expect(await clientFor(bed, key).account()).toMatchObject({ credits_left: 42, email })
  })

  it('looks a company up for free, by domain, and reports a miss as not_found', async () => {
    bed = await startBed()
    const { key, accountId } = await bed.sandbox.control.createAccount({ credits: 10 })
    const client = clientFor(bed, key)
    const profile = await client.companyProfile({ company_domain: 'acme-widgets.com' })
    expect(profile.company_domain).toBe('acme-widgets.com')
    expect(await codeOf(client.companyProfile({ company_domain: 'nobody.invalid' }))).toBe('not_found')
    expect(await codeOf(client.companyProfile({}))).toBe('rejected')
    expect(await bed.sandbox.control.balance(accountId)).toBe(10)
  })

  it('looks a lead up for 0.1 credit when found, and nothing when not', async () => {
    bed = await startBed()
    const { key, accountId } = await bed.sandbox.control.createAccount({ credits: 10 })
    const client = clientFor(bed, key)
    const lead = await client.leadProfile({
      first_name: 'Ada',
      last_name: 'Lovelace',
      company_domain: 'acme-widgets.com',
    })
    expect(lead.contact_first_name).toBeTruthy()
    expect(await bed.sandbox.control.balance(accountId)).toBeCloseTo(9.9, 5)
    expect(
      await codeOf(
        client.leadProfile({ first_name: 'Ada', last_name: 'Lovelace', company_domain: 'x.invalid' }),
      ),
    ).toBe('not_found')
    expect(await bed.sandbox.control.balance(accountId)).toBeCloseTo(9.9, 5)
  })

  it('keeps 404 (searches) and 406 (enrichment) apart for unknown request ids', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 10 })
    const client = clientFor(bed, key)
    expect(await codeOf(client.getEnrichment('missing'))).toBe('unknown_request')
    expect(await codeOf(client.getLeadSearch('missing'))).toBe('not_found')
    expect(await codeOf(client.getCompanySearch('missing'))).toBe('not_found')
  })

  it('maps refusals: 400 too many leads, 402 no credits, 401 unknown key (then fails fast)', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 0 })
    const client = clientFor(bed, key)
    expect(await codeOf(client.createEnrichment({ data: Array.from({ length: 101 }, () => ({})) }))).toBe(
      'bad_request',
    )
    expect(
      await codeOf(
        client.createEnrichment({ data: [{ first_name: 'a', last_name: 'b', company_domain: 'c.com' }] }),
      ),
    ).toBe('credits')
    const stranger = clientFor(bed, 'not-a-key')
    expect(await codeOf(stranger.getEnrichment('x'))).toBe('auth')
    expect(await codeOf(stranger.account())).toBe('auth')
    // The key refused once, the client sends nothing more with it; the sandbox keeps no trace of
    // such a request but its count.
    const log = await bed.sandbox.control.log()
    expect(log.refused).toBe(1)
    expect(log.requests.filter((r) => r.key === 'not-a-key')).toEqual([])
  })

  it('retries a GET through a 429 burst and a 500 until it gets the answer', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 10 })
    await bed.sandbox.control.setFaults([
      { endpoint: 'GET /lead_finder/async/:id', kind: 'status429', times: 1 },
      { endpoint: 'GET /lead_finder/async/:id', kind: 'status500', times: 1, skip: 1 },
    ])
    const client = clientFor(bed, key)
    const { requestId } = await client.createLeadSearch({
      filters: { job_title: { include: ['Engineer'] } },
      limit: 1,
    })
    expect((await client.getLeadSearch(requestId)).id).toBe(requestId)
    const log = await bed.sandbox.control.log()
    expect(log.requests.filter((r) => r.method === 'GET').map((r) => r.status)).toEqual([
      429,
      500,
      expect.any(Number),
    ])
  })
})
