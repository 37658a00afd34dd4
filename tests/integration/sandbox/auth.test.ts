import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { startSandbox, type Sandbox } from '../../../electron/sandbox'
import { call, startTestSandbox } from './support'

const UNAUTHORIZED = 'Your are not authorized. Please check your api_key.'

const ENDPOINTS: [string, string, 'error' | 'message', unknown?][] = [
  ['POST', '/async', 'error', { data: [{ first_name: 'a', last_name: 'b', company_domain: 'c.com' }] }],
  ['GET', '/async/some-id', 'error'],
  ['POST', '/lead_finder/async', 'message', { filters: { job_title: { include: ['CEO'] } } }],
  ['GET', '/lead_finder/async/some-id', 'message'],
  ['POST', '/company_finder/async', 'message', { filters: { is_b2b: true } }],
  ['GET', '/company_finder/async/some-id', 'message'],
  ['POST', '/enrich_profile/company', 'error', { company_domain: 'acme.com' }],
  ['POST', '/enrich_profile/lead', 'error', { network_url: 'https://network.example.com/in/x' }],
  ['GET', '/account', 'error'],
]

let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox.close())

describe('authentication', () => {
  it.each(ENDPOINTS)(
    '%s %s answers 401 for a missing, wrong or deactivated key',
    async (method, path, field, body) => {
      const { accountId } = await sandbox.control.createAccount()
      const retired = await sandbox.control.addKey(accountId)
      await sandbox.control.deactivateKey(retired)
      for (const key of [null, 'wrong-key', retired]) {
        const response = await call(sandbox, method, path, { key, body })
        expect(response.status).toBe(401)
        expect(response.body).toEqual({ success: false, [field]: UNAUTHORIZED })
      }
    },
  )

  it('does not read a Bearer authorization header', async () => {
    const response = await call(sandbox, 'GET', '/account', {
      headers: { authorization: `Bearer ${sandbox.demoKey}` },
    })
    expect(response.status).toBe(401)
  })

  it('reads api_key in the body only on the two profile lookups', async () => {
    const enrichment = await call(sandbox, 'POST', '/async', {
      body: {
        api_key: sandbox.demoKey,
        data: [{ first_name: 'a', last_name: 'b', company_domain: 'c.com' }],
      },
    })
    expect(enrichment.status).toBe(401)
    const profile = await call(sandbox, 'POST', '/enrich_profile/company', {
      body: { api_key: sandbox.demoKey, company_domain: 'acme.com' },
    })
    expect(profile.status).toBe(200)
  })

  it('GET /account answers {success, credits_left, email}, with the deprecated api_key query and email ignored', async () => {
    const { key, email } = await sandbox.control.createAccount({ email: 'owner@example.org', credits: 42.7 })
    const viaHeader = await call(sandbox, 'GET', '/account', { key })
    expect(viaHeader.status).toBe(200)
    expect(viaHeader.body).toEqual({ success: true, credits_left: 42, email })
    const viaQuery = await call(sandbox, 'GET', `/account?api_key=${key}&email=someone-else@example.org`)
    expect(viaQuery.body).toEqual({ success: true, credits_left: 42, email: 'owner@example.org' })
    expect((await call(sandbox, 'GET', `/lead_finder/async/x?api_key=${key}`)).status).toBe(401)
  })

  it('shares one balance between the keys of an account', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 10 })
    const second = await sandbox.control.addKey(accountId)
    await sandbox.control.topUp(accountId, 5)
    for (const k of [key, second]) {
      expect((await call(sandbox, 'GET', '/account', { key: k })).body.credits_left).toBe(15)
    }
    await sandbox.control.deactivateKey(key)
    expect((await call(sandbox, 'GET', '/account', { key })).status).toBe(401)
    expect((await call(sandbox, 'GET', '/account', { key: second })).status).toBe(200)
  })
})

describe('rate limits', () => {
  it('limits each key across all endpoints together, exempts /account, answers plain Retry later', async () => {
    const limited = await startTestSandbox({ timeScale: 1, rateLimitPerMinute: 3 })
    onTestFinished(() => limited.close())
    const { key, accountId } = await limited.control.createAccount()
    const other = await limited.control.addKey(accountId)
    expect((await call(limited, 'GET', '/async/x', { key })).status).toBe(406)
    expect((await call(limited, 'GET', '/lead_finder/async/x', { key })).status).toBe(404)
    expect((await call(limited, 'POST', '/enrich_profile/company', { key, body: {} })).status).toBe(422)
    const refused = await call(limited, 'GET', '/company_finder/async/x', { key })
    expect(refused.status).toBe(429)
    expect(refused.text).toBe('Retry later')
    expect(refused.headers.get('content-type')).toContain('text/plain')
    expect(refused.headers.get('retry-after')).toBeNull()
    expect((await call(limited, 'GET', '/account', { key })).status).toBe(200)
    expect((await call(limited, 'GET', '/async/x', { key: other })).status).toBe(406)
  })

  it('opens again once the window has passed (scaled)', async () => {
    // One minute at 0.005 is 300 ms.
    const limited = await startTestSandbox({ timeScale: 0.005, rateLimitPerMinute: 2 })
    onTestFinished(() => limited.close())
    const key = limited.demoKey
    await call(limited, 'GET', '/async/x', { key })
    await call(limited, 'GET', '/async/x', { key })
    expect((await call(limited, 'GET', '/async/x', { key })).status).toBe(429)
    await new Promise((resolve) => setTimeout(resolve, 350))
    expect((await call(limited, 'GET', '/async/x', { key })).status).toBe(406)
  })

  it('allows 5 requests per 5 minutes per IP with unknown or deactivated keys, /account included', async () => {
    // Started without test overrides, so the default of 5 per 5 minutes is what is checked.
    const strict = await startSandbox()
    onTestFinished(() => strict.close())
    const statuses: number[] = []
    for (let i = 0; i < 4; i++)
      statuses.push((await call(strict, 'GET', '/async/x', { key: `bad-${i}` })).status)
    statuses.push((await call(strict, 'GET', '/account', { key: 'bad' })).status)
    const sixth = await call(strict, 'GET', '/account', { key: 'bad' })
    expect(statuses).toEqual([401, 401, 401, 401, 401])
    expect(sixth.status).toBe(429)
    expect(sixth.text).toBe('Retry later')
    expect((await call(strict, 'GET', '/account', { key: strict.demoKey })).status).toBe(200)
  })
})
