import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../electron/sandbox'
import { call, startTestSandbox } from './support'

let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox.close())

/** Bodies that are not a JSON object: cut short, not JSON at all, or JSON of another type. */
const MALFORMED = [
  '{"data": [',
  'not json',
  "{'single': 'quotes'}",
  '[{"first_name": "Ada"}]',
  '42',
  'null',
  '"text"',
]

/** The interface shows no answer to these; each endpoint answers the 400 it gives for its required field missing. */
const ENDPOINTS = [
  ['/async', { success: false, error: 'Bad request. Please check documentation' }],
  ['/lead_finder/async', { success: false, message: 'Filters parameter is required.' }],
  [
    '/company_finder/async',
    { success: false, message: 'Filters parameter is invalid. Include values can not be blank' },
  ],
  ['/enrich_profile/lead', { success: false, error: 'Data parameter is required.' }],
  ['/enrich_profile/company', { success: false, error: 'Bad request. Please check documentation' }],
] as const

describe('malformed JSON bodies', () => {
  it.each(ENDPOINTS)('POST %s answers 400 with its own text and creates nothing', async (path, expected) => {
    const before = await sandbox.control.balance('demo')
    await sandbox.control.clearLog()
    for (const rawBody of MALFORMED) {
      const response = await call(sandbox, 'POST', path, { key: sandbox.demoKey, rawBody })
      expect(response.status, rawBody).toBe(400)
      expect(response.headers.get('content-type')).toContain('application/json')
      expect(response.body, rawBody).toEqual(expected)
    }
    const { requests, charges } = await sandbox.control.log()
    expect(requests).toHaveLength(MALFORMED.length)
    for (const entry of requests) expect(entry).not.toHaveProperty('requestId')
    expect(charges).toEqual([])
    expect(await sandbox.control.balance('demo')).toBe(before)
  })

  it('logs the raw text of a body that is not JSON', async () => {
    await sandbox.control.clearLog()
    await call(sandbox, 'POST', '/async', { key: sandbox.demoKey, rawBody: 'not json' })
    const { requests } = await sandbox.control.log()
    expect(requests).toEqual([expect.objectContaining({ status: 400, body: 'not json' })])
  })

  it('checks the key first: without one a malformed body answers 401', async () => {
    const response = await call(sandbox, 'POST', '/enrich_profile/lead', { rawBody: '{"api_key": ' })
    expect(response.status).toBe(401)
    expect(response.body).toEqual({
      success: false,
      error: 'Your are not authorized. Please check your api_key.',
    })
  })

  it('reads an empty body as no fields, so each endpoint names what is missing as the interface says', async () => {
    const key = sandbox.demoKey
    expect((await call(sandbox, 'POST', '/async', { key, rawBody: '' })).body).toEqual({
      success: false,
      error: 'Bad request. Please check documentation',
    })
    const lead = await call(sandbox, 'POST', '/enrich_profile/lead', { key, rawBody: '' })
    expect(lead.status).toBe(400)
    expect(lead.body).toEqual({ success: false, error: 'Data parameter is required.' })
    const company = await call(sandbox, 'POST', '/enrich_profile/company', { key, rawBody: '' })
    expect(company.status).toBe(422)
    expect(company.body).toEqual({
      success: false,
      error: 'company_domain or company_linkedin_url is required.',
    })
  })

  it('still accepts a well-formed body', async () => {
    const created = await call(sandbox, 'POST', '/async', {
      key: sandbox.demoKey,
      rawBody: '{"data": [{"first_name": "Ada", "last_name": "Lovelace", "company_domain": "example.com"}]}',
    })
    expect(created.status).toBe(201)
  })

  it('refuses a malformed control call instead of acting on defaults', async () => {
    const response = await fetch(`${sandbox.url}/__sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"credits": ',
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'malformed JSON body: send a JSON object' })
  })
})
