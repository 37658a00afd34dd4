import { afterEach, describe, expect, it } from 'vitest'
import { createServiceClient } from '../../../../../electron/engine/client/client'
import { seededRandom } from '../../../../../electron/engine/client/clock'
import { ServiceError } from '../../../../../electron/engine/client/errors'
import { RateGovernor } from '../../../../../electron/engine/client/governor'
import type { Reply, Seen } from './scripted-server'
import { scriptedServer } from './scripted-server'

/** Every scripted server a test started, closed after it (a test may start several). */
const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

async function clientFor(script: (seen: Seen, index: number) => Reply, overrides = {}) {
  const server = await scriptedServer(script)
  closers.push(server.close)
  const client = createServiceClient({
    baseUrl: server.url,
    apiKey: 'test-key',
    governor: new RateGovernor({ ceiling: 10_000, windowMs: 1000 }),
    random: seededRandom(1),
    settings: {
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 5,
      requestTimeoutMs: 2000,
      maxAttempts: 4,
      ...overrides,
    },
  })
  return { client, seen: server.seen }
}

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ServiceError)
  return error as ServiceError
}

describe('service client against scripted answers', () => {
  it('sends the key in X-API-Key and parses decimal-string credits', async () => {
    const { client, seen } = await clientFor(() => ({
      status: 202,
      body: { id: 'c1', status: 'processing', credits_consumed: '0.0', credits_left: '12.5', extra: true },
    }))
    const result = await client.getCompanySearch('c1')
    expect(result.credits_left).toBe(12.5)
    expect(seen[0]?.headers['x-api-key']).toBe('test-key')
    expect(seen[0]?.headers.authorization).toBeUndefined()
  })

  it('decides by the status field, not the HTTP code', async () => {
    const { client } = await clientFor(() => ({
      status: 200,
      body: { id: 'r', status: 'processing', message: 'wait' },
    }))
    expect((await client.getEnrichment('r')).status).toBe('processing')
  })

  it('names the missing required field of an answer', async () => {
    const { client } = await clientFor(() => ({
      status: 200,
      body: { id: 'r', status: 'terminated', credits_left: 1 },
    }))
    const error = await failure(client.getEnrichment('r'))
    expect(error.code).toBe('invalid_response')
    expect(error.message).toContain('data')
  })

  it('reads error text from error and message and keeps 404 apart from 406', async () => {
    const { client } = await clientFor((seen) =>
      seen.path.startsWith('/api/v2/async/')
        ? { status: 406, body: { error: 'Unvalid request_id.' } }
        : { status: 404, body: { success: false, message: 'Lead finder request not found.' } },
    )
    const enrichment = await failure(client.getEnrichment('nope'))
    expect([enrichment.code, enrichment.message]).toEqual(['unknown_request', 'Unvalid request_id.'])
    const lead = await failure(client.getLeadSearch('nope'))
    expect([lead.code, lead.message]).toEqual(['not_found', 'Lead finder request not found.'])
  })

  it('tells a plan refusal from an empty balance', async () => {
    const { client } = await clientFor((seen) =>
      (seen.body as { enrich_phone_number?: boolean }).enrich_phone_number
        ? {
            status: 402,
            body: {
              success: false,
              error: "You don't have access to phone number enrichment feature. Please upgrade your plan.",
            },
          }
        : { status: 402, body: { success: false, error: 'You ran out of credits' } },
    )
    expect((await failure(client.createEnrichment({ data: [{}], enrich_phone_number: true }))).code).toBe(
      'plan',
    )
    expect((await failure(client.createEnrichment({ data: [{}] }))).code).toBe('credits')
  })

  it('retries a GET through 429s and 500s, then gives up with a clear error when the budget is spent', async () => {
    const { client, seen } = await clientFor((_seen, index) =>
      index < 2
        ? { status: 429, text: 'Retry later' }
        : index < 3
          ? { status: 500, body: { error: 'An error occured' } }
          : { status: 202, body: { id: 'x', status: 'processing', message: 'Request is being processed.' } },
    )
    expect(await client.getLeadSearch('x')).toMatchObject({ id: 'x', status: 'processing' })
    expect(seen.length).toBe(4)
    const { client: busy } = await clientFor(() => ({ status: 500, body: { error: 'An error occured' } }))
    const error = await failure(busy.getEnrichment('x'))
    expect(error.code).toBe('server')
    expect(error.attempts).toBe(4)
    expect(error.message).toMatch(/failed 4 times/)
  })

  it('retries a POST only on 429, never after a 500, a time-out or a dropped connection', async () => {
    const created = { status: 201, body: { success: true, id: 'e1', message: 'ok' } }
    const { client, seen } = await clientFor((_s, index) =>
      index === 0 ? { status: 429, text: 'Retry later' } : created,
    )
    expect(await client.createEnrichment({ data: [{}] })).toEqual({ requestId: 'e1' })
    expect(seen.length).toBe(2)

    for (const reply of [
      { status: 500, body: { error: 'An error occured' } },
      'drop' as const,
      { delayMs: 400, then: created },
    ]) {
      const { client: flaky, seen: sent } = await clientFor(() => reply, { requestTimeoutMs: 200 })
      const error = await failure(flaky.createEnrichment({ data: [{}] }))
      expect(error.code).toBe('outcome_unknown')
      expect(error.message).toMatch(/charged twice/)
      expect(sent.length).toBe(1)
      await closers.pop()?.()
    }
  })

  it('retries the free company lookup after a 500 but not the charged lead lookup', async () => {
    const profile = { status: 200, body: { success: true, data: { company_id: 1, company_name: 'Acme' } } }
    const { client, seen } = await clientFor((_s, index) =>
      index === 0 ? { status: 500, body: { error: 'Something bad happened' } } : profile,
    )
    expect((await client.companyProfile({ company_domain: 'acme.io' })).company_name).toBe('Acme')
    expect(seen.length).toBe(2)
    const { client: lead, seen: leadSeen } = await clientFor(() => ({
      status: 500,
      body: { error: 'An error occured' },
    }))
    expect((await failure(lead.leadProfile({ network_url: 'https://x' }))).code).toBe('outcome_unknown')
    expect(leadSeen.length).toBe(1)
  })

  it('stops calling with a key after a 401, account included', async () => {
    const { client, seen } = await clientFor(() => ({
      status: 401,
      body: { success: false, error: 'Your are not authorized. Please check your api_key.' },
    }))
    expect((await failure(client.getEnrichment('x'))).code).toBe('auth')
    expect((await failure(client.createEnrichment({ data: [{}] }))).code).toBe('auth')
    expect((await failure(client.account())).code).toBe('auth')
    expect(seen.length).toBe(1)
  })

  it('reports a connection that never opened as a network error after retries', async () => {
    const closed = await scriptedServer(() => ({ status: 200 }))
    await closed.close()
    const client = createServiceClient({
      baseUrl: closed.url,
      apiKey: 'k',
      governor: new RateGovernor({ ceiling: 10_000, windowMs: 1000 }),
      settings: { retryBaseDelayMs: 1, retryMaxDelayMs: 2, maxAttempts: 2 },
    })
    expect((await failure(client.getEnrichment('x'))).code).toBe('network')
    // Refused before any byte was sent: nothing can have been created, so the POST may be tried again.
    expect((await failure(client.createEnrichment({ data: [{}] }))).code).toBe('network')
  })
})
