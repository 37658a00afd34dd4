import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../electron/sandbox'
import { byStatus, call, leads, pollUntil, startTestSandbox } from './support'

let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox.close())
afterEach(async () => {
  await sandbox.control.clearFaults()
  await sandbox.control.clearLog()
})

const enrichmentBody = { data: leads(2) }
const createdIds = async (path: string) =>
  (await sandbox.control.log()).requests
    .filter((entry) => entry.path === path && entry.requestId)
    .map((e) => e.requestId!)

describe('fault rules', () => {
  it('status429 answers plain Retry later for the next N matching requests', async () => {
    await sandbox.control.setFaults([{ endpoint: 'GET /account', kind: 'status429', times: 2 }])
    const statuses = []
    for (let i = 0; i < 3; i++)
      statuses.push((await call(sandbox, 'GET', '/account', { key: sandbox.demoKey })).status)
    expect(statuses).toEqual([429, 429, 200])
  })

  it('status500 creates nothing and answers each endpoint’s own 500 text', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 100 })
    await sandbox.control.setFaults([{ endpoint: '*', kind: 'status500' }])
    const enrichment = await call(sandbox, 'POST', '/async', { key, body: enrichmentBody })
    expect(enrichment.status).toBe(500)
    expect(enrichment.body).toEqual({ success: false, error: 'An error occured' })
    const companies = await call(sandbox, 'POST', '/company_finder/async', {
      key,
      body: { filters: { is_b2b: true } },
    })
    expect(companies.body).toEqual({ success: false, message: 'Company finder request failed.' })
    const profile = await call(sandbox, 'POST', '/enrich_profile/company', {
      key,
      body: { company_domain: 'a.com' },
    })
    expect(profile.body).toEqual({ success: false, error: 'Something bad happened' })
    expect(await createdIds('/async')).toEqual([])
    expect(await sandbox.control.balance(accountId)).toBe(100)
  })

  it('status500AfterCreate creates (and charges for) the request, then answers 500', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 100 })
    await sandbox.control.setFaults([{ endpoint: 'POST /async', kind: 'status500AfterCreate', times: 1 }])
    const response = await call(sandbox, 'POST', '/async', { key, body: enrichmentBody })
    expect(response.status).toBe(500)
    expect(response.body).toEqual({ success: false, error: 'An error occured' })
    const [id] = await createdIds('/async')
    expect(id).toEqual(expect.any(String))
    const done = await pollUntil(() => call(sandbox, 'GET', `/async/${id}`, { key }), byStatus('terminated'))
    expect(await sandbox.control.balance(accountId)).toBe(100 - done.body.credits_consumed)
  })

  it('dropAfterCreate creates the request and closes the socket without an answer', async () => {
    await sandbox.control.setFaults([{ endpoint: 'POST /lead_finder/async', kind: 'dropAfterCreate' }])
    const attempt = call(sandbox, 'POST', '/lead_finder/async', {
      key: sandbox.demoKey,
      body: { filters: { job_title: { include: ['CEO'] } } },
    })
    await expect(attempt).rejects.toThrow()
    const [id] = await createdIds('/lead_finder/async')
    const found = await call(sandbox, 'GET', `/lead_finder/async/${id}`, { key: sandbox.demoKey })
    expect([200, 202]).toContain(found.status)
    const entry = (await sandbox.control.log()).requests.find(
      (e) => e.requestId === id && e.method === 'POST',
    )
    expect(entry?.status).toBeNull()
  })

  it('drop closes the socket and creates nothing', async () => {
    await sandbox.control.setFaults([{ endpoint: 'POST /async', kind: 'drop', times: 1 }])
    await expect(
      call(sandbox, 'POST', '/async', { key: sandbox.demoKey, body: enrichmentBody }),
    ).rejects.toThrow()
    expect(await createdIds('/async')).toEqual([])
    expect(
      (await call(sandbox, 'POST', '/async', { key: sandbox.demoKey, body: enrichmentBody })).status,
    ).toBe(201)
  })

  it('slow holds the answer for delayMs (raw, unscaled) and then answers normally', async () => {
    await sandbox.control.setFaults([{ endpoint: 'GET /account', kind: 'slow', delayMs: 300 }])
    const started = Date.now()
    const response = await call(sandbox, 'GET', '/account', { key: sandbox.demoKey })
    expect(response.status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(295)
  })

  it('stuck keeps work created while it is active in processing; later work finishes', async () => {
    await sandbox.control.setFaults([{ endpoint: '*', kind: 'stuck' }])
    const key = sandbox.demoKey
    const enrichment = (await call(sandbox, 'POST', '/async', { key, body: enrichmentBody })).body.id
    const search = (
      await call(sandbox, 'POST', '/company_finder/async', {
        key,
        body: { filters: { is_b2b: true }, limit: 1 },
      })
    ).body.request_id
    await sandbox.control.clearFaults()
    const control = (
      await call(sandbox, 'POST', '/company_finder/async', { key, body: { filters: { is_b2b: true } } })
    ).body.request_id
    await pollUntil(
      () => call(sandbox, 'GET', `/company_finder/async/${control}`, { key }),
      byStatus('terminated'),
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    const stuckSearch = await call(sandbox, 'GET', `/company_finder/async/${search}`, { key })
    expect(stuckSearch.status).toBe(202)
    expect(stuckSearch.body.status).toBe('processing')
    const stuckEnrichment = await call(sandbox, 'GET', `/async/${enrichment}`, { key })
    expect(stuckEnrichment.body.status).toBe('processing')
  })

  it('skip lets the first N through, times bounds the rest', async () => {
    await sandbox.control.setFaults([{ endpoint: 'GET /account', kind: 'status500', skip: 1, times: 1 }])
    const statuses = []
    for (let i = 0; i < 3; i++)
      statuses.push((await call(sandbox, 'GET', '/account', { key: sandbox.demoKey })).status)
    expect(statuses).toEqual([200, 500, 200])
  })

  it('probability draws from a seeded generator: same rules, same sequence', async () => {
    const run = async () => {
      await sandbox.control.setFaults([{ endpoint: 'GET /account', kind: 'status429', probability: 0.5 }])
      const statuses = []
      for (let i = 0; i < 20; i++)
        statuses.push((await call(sandbox, 'GET', '/account', { key: sandbox.demoKey })).status)
      return statuses
    }
    const first = await run()
    expect(first).toContain(429)
    expect(first).toContain(200)
    expect(await run()).toEqual(first)
  })

  it('rejects an unknown fault kind', async () => {
    await expect(sandbox.control.setFaults([{ endpoint: '*', kind: 'explode' as never }])).rejects.toThrow(
      /fault kind/,
    )
  })
})
