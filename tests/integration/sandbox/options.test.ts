import { describe, expect, it, onTestFinished } from 'vitest'
import type { SandboxOptions } from '../../../electron/sandbox'
import { getWorld } from '../../../electron/sandbox/world'
import { startReceiver, waitFor } from './receiver'
import { byStatus, call, leads, pollUntil, startTestSandbox } from './support'

// Each value the interface leaves "not shown" is an option of the sandbox; these tests change each one
// away from its default and watch the interface answer differently over HTTP.

async function sandboxWith(options: SandboxOptions) {
  const sandbox = await startTestSandbox(options)
  onTestFinished(() => sandbox.close())
  return sandbox
}

type TestSandbox = Awaited<ReturnType<typeof sandboxWith>>

async function enrichment(sandbox: TestSandbox, key: string, body: Record<string, unknown>) {
  const created = await call(sandbox, 'POST', '/async', { key, body })
  expect(created.status).toBe(201)
  return pollUntil(() => call(sandbox, 'GET', `/async/${created.body.id}`, { key }), byStatus('terminated'))
}

async function finishedSearch(sandbox: TestSandbox, kind: string, key: string, body: unknown) {
  const created = await call(sandbox, 'POST', `/${kind}/async`, { key, body })
  expect(created.status).toBe(202)
  const id = created.body.request_id as string
  return pollUntil(() => call(sandbox, 'GET', `/${kind}/async/${id}`, { key }), byStatus('terminated'))
}

const VPS = { contact_seniority: { include: ['vp'] } }
const SOFTWARE = { company_industry: { include: ['Software Development'] } }

describe('options for what the interface does not show', () => {
  it('invalidKeyLimit and invalidKeyWindowMs set the throttle of unknown keys', async () => {
    const sandbox = await sandboxWith({ timeScale: 1, invalidKeyLimit: 2, invalidKeyWindowMs: 400 })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await call(sandbox, 'GET', '/account', { key: 'bad' })).status)
    expect(statuses).toEqual([401, 401, 429])
    await new Promise((resolve) => setTimeout(resolve, 450))
    expect((await call(sandbox, 'GET', '/account', { key: 'bad' })).status).toBe(401)
  })

  it('defaultCredits and every price: creditsPerEmail, creditsPerPhone, creditsPerCompany, creditsPerLeadProfile', async () => {
    const sandbox = await sandboxWith({
      defaultCredits: 500,
      creditsPerEmail: 2,
      creditsPerPhone: 7,
      creditsPerCompany: 3,
      creditsPerLeadProfile: 0.5,
    })
    const { key, accountId } = await sandbox.control.createAccount()
    expect((await call(sandbox, 'GET', '/account', { key })).body.credits_left).toBe(500)

    const enriched = await enrichment(sandbox, key, { data: leads(20, 'price'), enrich_phone_number: true })
    const { valid, catch_all: catchAll, phone_enrichment: phones } = enriched.body.summary
    expect(phones.enriched).toBeGreaterThan(0)
    // Without catch-all verification, deliverable (`valid`) and catch_all addresses are charged.
    expect(enriched.body.credits_consumed).toBe(2 * (valid + catchAll) + 7 * phones.enriched)

    const companies = await finishedSearch(sandbox, 'company_finder', key, { filters: SOFTWARE, limit: 3 })
    expect(companies.body.companies).toHaveLength(3)
    expect(companies.body.credits_consumed).toBe('9.0')

    const before = await sandbox.control.balance(accountId)
    const person = getWorld(1, { companies: 3000, peoplePerCompany: 10 }).people[7]!
    const profile = await call(sandbox, 'POST', '/enrich_profile/lead', {
      key,
      body: { network_url: person.networkUrl },
    })
    expect(profile.status).toBe(200)
    expect(await sandbox.control.balance(accountId)).toBe(before - 0.5)
  })

  it('leadSearchMinLimit, leadSearchMaxLimit, leadSearchDefaultLimit, leadSearchMaxOffset, leadSearchMaxLeads', async () => {
    const sandbox = await sandboxWith({
      leadSearchMinLimit: 2,
      leadSearchMaxLimit: 5,
      leadSearchDefaultLimit: 3,
      leadSearchMaxOffset: 10,
      leadSearchMaxLeads: 4,
    })
    const key = sandbox.demoKey
    for (const bounds of [{ limit: 1 }, { limit: 6 }, { offset: 11 }, { max_leads: 5 }]) {
      const refused = await call(sandbox, 'POST', '/lead_finder/async', {
        key,
        body: { filters: VPS, ...bounds },
      })
      expect(refused.status, JSON.stringify(bounds)).toBe(422)
    }
    const byDefault = await finishedSearch(sandbox, 'lead_finder', key, { filters: VPS })
    expect(byDefault.body.summary.limit).toBe(3)
    expect(byDefault.body.leads).toHaveLength(3)
    // max_leads defaults to its largest value, which caps a larger limit.
    const capped = await finishedSearch(sandbox, 'lead_finder', key, { filters: VPS, limit: 5, offset: 10 })
    expect(capped.body.summary.offset).toBe(10)
    expect(capped.body.leads).toHaveLength(4)
  })

  it('defaultEnrichPhone, defaultVerifyCatchAll and defaultPushContactIndividually set the absent flags of POST /async', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }))
    onTestFinished(() => receiver.close())
    const sandbox = await sandboxWith({
      defaultEnrichPhone: true,
      defaultVerifyCatchAll: true,
      defaultPushContactIndividually: true,
    })
    const key = sandbox.demoKey
    const done = await enrichment(sandbox, key, {
      data: leads(20, 'flags'),
      contact_webhook: `${receiver.url}/each`,
    })
    const rows = done.body.data as {
      contact_phone_number: string | null
      contact_email_address_status: string
    }[]
    const statuses = new Set(rows.map((row) => row.contact_email_address_status))
    expect(rows.some((row) => row.contact_phone_number !== null)).toBe(true)
    expect(statuses.has('catch_all')).toBe(false)
    expect([...statuses].some((status) => status.startsWith('catch_all_'))).toBe(true)
    await waitFor(() => receiver.on('/each').length === 20)

    // A flag sent in the body wins over the default.
    const explicit = await enrichment(sandbox, key, { data: leads(20, 'flags'), enrich_phone_number: false })
    expect(
      explicit.body.data.every((row: { contact_phone_number: null }) => row.contact_phone_number === null),
    ).toBe(true)

    // A default flag asks for the add-on as much as a sent one does.
    const noPhone = await sandbox.control.createAccount({ phone: false })
    const refused = await call(sandbox, 'POST', '/async', { key: noPhone.key, body: { data: leads(1) } })
    expect(refused.status).toBe(402)
    expect(refused.body.error).toBe(
      "You don't have access to phone number enrichment feature. Please upgrade your plan.",
    )
  })

  it('defaultEnrichEmail false leaves every address out', async () => {
    const sandbox = await sandboxWith({ defaultEnrichEmail: false })
    const done = await enrichment(sandbox, sandbox.demoKey, { data: leads(10, 'noemail') })
    expect(done.body.summary.email_enrichment).toEqual({ enriched: 0, not_enriched: 10 })
    expect(done.body.credits_consumed).toBe(0)
  })

  it('defaultFreeLeadSearches and defaultFreeCompanySearches set the quotas of new accounts, not of the demo', async () => {
    const sandbox = await sandboxWith({ defaultFreeLeadSearches: 1, defaultFreeCompanySearches: 0 })
    const { key, accountId } = await sandbox.control.createAccount()
    expect(await sandbox.control.account(accountId)).toMatchObject({
      freeLeadSearches: 1,
      freeCompanySearches: 0,
    })
    const lead = () => call(sandbox, 'POST', '/lead_finder/async', { key, body: { filters: VPS } })
    expect((await lead()).status).toBe(202)
    expect((await lead()).status).toBe(422)
    const company = await call(sandbox, 'POST', '/company_finder/async', { key, body: { filters: SOFTWARE } })
    expect(company.status).toBe(422)
    expect(company.body.message).toBe(
      'You are out of free company finder requests. Please upgrade your plan to continue using this feature.',
    )
    expect(await sandbox.control.account('demo')).toMatchObject({
      freeLeadSearches: null,
      freeCompanySearches: null,
    })
    // An explicit null (unlimited) wins over the default.
    const unlimited = await sandbox.control.createAccount({
      freeLeadSearches: null,
      freeCompanySearches: null,
    })
    expect(await sandbox.control.account(unlimited.accountId)).toMatchObject({
      freeLeadSearches: null,
      freeCompanySearches: null,
    })
  })
})
