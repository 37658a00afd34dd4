import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import type { Sandbox } from '../../../electron/sandbox'
import { byStatus, call, pollUntil, startTestSandbox } from './support'

const LEAD_FIELDS = [
  'contact_id',
  'contact_first_name',
  'contact_last_name',
  'contact_full_name',
  'contact_job_title',
  'contact_seniority',
  'contact_headline',
  'contact_industry',
  'contact_gender',
  'contact_network_profile_url',
  'contact_location_continent',
  'contact_location_country',
  'contact_location_state',
  'contact_location_city',
  'contact_email_address',
  'contact_email_address_status',
  'contact_email_address_provider',
  'contact_phone_number',
  'company_name',
  'company_domain',
  'company_description',
  'company_network_url',
  'company_industry',
  'company_type',
  'company_keywords',
  'company_founded_year',
  'company_employees_range_start',
  'company_employees_range_end',
  'company_head_quarters_city',
  'company_head_quarters_country',
  'custom_fields',
]

const VPS = { contact_seniority: { include: ['vp'] } }

let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox.close())

const submit = (key: string, body: unknown) => call(sandbox, 'POST', '/lead_finder/async', { key, body })
const read = (key: string, id: string) => call(sandbox, 'GET', `/lead_finder/async/${id}`, { key })
const finished = (key: string, id: string) => pollUntil(() => read(key, id), byStatus('terminated'))

describe('POST /lead_finder/async and GET /lead_finder/async/{id}', () => {
  it('accepts with 202 {success, message, request_id}, then not_started → processing → terminated', async () => {
    // Slow queue and work phases, so that each state is seen by polling whatever the machine's load.
    const slow = await startTestSandbox({ searchQueueMs: 40_000, searchWorkMs: 40_000 })
    const key = (await slow.control.createAccount()).key
    const submit = (key: string, body: unknown) => call(slow, 'POST', '/lead_finder/async', { key, body })
    const read = (key: string, id: string) => call(slow, 'GET', `/lead_finder/async/${id}`, { key })
    const finished = (key: string, id: string) => pollUntil(() => read(key, id), byStatus('terminated'))
    onTestFinished(() => slow.close())
    const created = await submit(key, { filters: VPS, limit: 5 })
    expect(created.status).toBe(202)
    expect(created.body).toEqual({
      success: true,
      message: expect.any(String),
      request_id: expect.any(String),
    })
    const id = created.body.request_id
    const queued = await read(key, id)
    expect(queued.status).toBe(202)
    expect(queued.body).toMatchObject({
      id,
      status: 'not_started',
      message: expect.any(String),
      credits_left: 1000,
    })
    expect(queued.body).not.toHaveProperty('leads')
    const processing = await pollUntil(() => read(key, id), byStatus('processing', 'terminated'))
    expect(processing.body.status).toBe('processing')
    expect(processing.status).toBe(202)
    const done = await finished(key, id)
    expect(done.status).toBe(200)
    expect(done.body).not.toHaveProperty('message')
    expect(done.body.leads).toHaveLength(5)
    for (const lead of done.body.leads) {
      expect(Object.keys(lead).sort()).toEqual([...LEAD_FIELDS].sort())
      expect(lead.contact_seniority).toBe('vp')
    }
    const { summary } = done.body
    expect(summary).toMatchObject({ leads_found: 5, limit: 5, offset: 0 })
    expect(summary.total).toBeGreaterThan(5)
    expect(
      summary.valid +
        summary.catch_all +
        summary.catch_all_not_safe +
        summary.undeliverable +
        summary.not_found,
    ).toBe(5)
    expect(done.body.credits_consumed).toBe(0)
  })

  it('pages with offset and stays deterministic', async () => {
    const key = sandbox.demoKey
    const first = await finished(key, (await submit(key, { filters: VPS, limit: 4 })).body.request_id)
    const again = await finished(key, (await submit(key, { filters: VPS, limit: 4 })).body.request_id)
    const next = await finished(
      key,
      (await submit(key, { filters: VPS, limit: 2, offset: 2 })).body.request_id,
    )
    expect(again.body.leads).toEqual(first.body.leads)
    expect(next.body.leads).toEqual(first.body.leads.slice(2, 4))
  })

  it('filters by company and person keys together', async () => {
    const filters = {
      company_industry: { include: ['Software Development'] },
      company_hq_location: { include: ['united states'] },
      job_title: { include: ['engineer'] },
    }
    const done = await finished(
      sandbox.demoKey,
      (await submit(sandbox.demoKey, { filters, limit: 20 })).body.request_id,
    )
    expect(done.body.leads.length).toBeGreaterThan(0)
    for (const lead of done.body.leads) {
      expect(lead.company_industry).toBe('Software Development')
      expect(lead.company_head_quarters_country).toBe('United States')
      expect(lead.contact_job_title.toLowerCase()).toContain('engineer')
    }
  })

  it('ends terminated with an empty array when nothing matches, and exclude-only filters match nothing', async () => {
    for (const filters of [
      { company_industry: { include: ['Not An Industry'] } },
      { contact_seniority: { include: [], exclude: ['intern'] } },
    ]) {
      const done = await finished(
        sandbox.demoKey,
        (await submit(sandbox.demoKey, { filters })).body.request_id,
      )
      expect(done.body.leads).toEqual([])
      expect(done.body.summary.leads_found).toBe(0)
    }
  })

  it('applies exclude after include', async () => {
    const filters = { ...VPS, company_industry: { include: [], exclude: ['Software Development'] } }
    const done = await finished(
      sandbox.demoKey,
      (await submit(sandbox.demoKey, { filters, limit: 50 })).body.request_id,
    )
    expect(done.body.leads.length).toBeGreaterThan(0)
    expect(
      done.body.leads.every(
        (lead: { company_industry: string }) => lead.company_industry !== 'Software Development',
      ),
    ).toBe(true)
  })

  it('charges only when email or phone enrichment is asked', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 500 })
    const free = await finished(key, (await submit(key, { filters: VPS, limit: 10 })).body.request_id)
    expect(free.body.credits_consumed).toBe(0)
    expect(await sandbox.control.balance(accountId)).toBe(500)
    const paid = await finished(
      key,
      (await submit(key, { filters: VPS, limit: 10, enrich_email_address: true, enrich_phone_number: true }))
        .body.request_id,
    )
    const emails = paid.body.leads.filter((lead: { contact_email_address_status: string }) =>
      ['deliverable', 'catch_all'].includes(lead.contact_email_address_status),
    ).length
    const phones = paid.body.leads.filter(
      (lead: { contact_phone_number: string | null }) => lead.contact_phone_number,
    ).length
    expect(paid.body.credits_consumed).toBe(emails + 10 * phones)
    expect(paid.body.credits_consumed).toBeGreaterThan(0)
    expect(await sandbox.control.balance(accountId)).toBe(500 - paid.body.credits_consumed)
  })

  it('goes on_hold when enrichment empties the balance and resumes after a top-up', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 3 })
    const id = (await submit(key, { filters: VPS, limit: 20, enrich_email_address: true })).body.request_id
    const held = await pollUntil(() => read(key, id), byStatus('on_hold', 'terminated'))
    expect(held.status).toBe(200)
    expect(held.body).toMatchObject({
      status: 'on_hold',
      credits_consumed: 3,
      credits_left: 0,
      message: 'Request is on hold: the credit balance reached zero. It resumes on its own after a top-up.',
    })
    expect(held.body).not.toHaveProperty('leads')
    await sandbox.control.topUp(accountId, 50)
    const done = await finished(key, id)
    expect(done.body.leads).toHaveLength(20)
    expect(await sandbox.control.balance(accountId)).toBe(53 - done.body.credits_consumed)
  })

  it('goes on_hold before a phone the balance cannot pay, says so, and resumes after a top-up', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 5 })
    const id = (await submit(key, { filters: VPS, limit: 20, enrich_phone_number: true })).body.request_id
    const held = await pollUntil(() => read(key, id), byStatus('on_hold', 'terminated'))
    expect(held.status).toBe(200)
    expect(held.body).toEqual({
      id,
      status: 'on_hold',
      credits_consumed: 0,
      credits_left: 5,
      message:
        'Request is on hold: the balance (5 credits) cannot pay for the next result (10 credits). It resumes on its own after a top-up.',
    })
    expect(await sandbox.control.balance(accountId)).toBe(5)
    await sandbox.control.topUp(accountId, 1000)
    const done = await finished(key, id)
    expect(done.body.leads).toHaveLength(20)
    const phones = done.body.leads.filter(
      (lead: { contact_phone_number: string | null }) => lead.contact_phone_number,
    )
    expect(done.body.credits_consumed).toBe(10 * phones.length)
    expect(await sandbox.control.balance(accountId)).toBe(1005 - 10 * phones.length)
  })
})

describe('lead search errors', () => {
  it('400 without filters and when every filter is empty', async () => {
    const missing = await submit(sandbox.demoKey, { limit: 5 })
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({ success: false, message: 'Filters parameter is required.' })
    for (const filters of [
      {},
      { job_title: { include: [], exclude: [] } },
      { job_title: { include: ['  '] } },
      { nope: ['x'] },
    ]) {
      const blank = await submit(sandbox.demoKey, { filters })
      expect(blank.status).toBe(400)
      expect(blank.body.message).toBe('Filters parameter is invalid. Include and Exclude can not be blank')
    }
  })

  it.each([
    { limit: 0 },
    { limit: 101 },
    { limit: 'ten' },
    { offset: -1 },
    { offset: 10_001 },
    { max_leads: 0 },
    { max_leads: 1001 },
    { limit: 2.5 },
  ])('422 Lead finder was not accepted for %o', async (bounds) => {
    const response = await submit(sandbox.demoKey, { filters: VPS, ...bounds })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({ success: false, message: 'Lead finder was not accepted.' })
  })

  it('accepts the bounds themselves', async () => {
    for (const bounds of [
      { limit: 1 },
      { limit: 100 },
      { offset: 10_000 },
      { max_leads: 1 },
      { max_leads: 1000 },
    ]) {
      expect((await submit(sandbox.demoKey, { filters: VPS, ...bounds })).status).toBe(202)
    }
  })

  it('422 pointing to the company endpoint for a single company domain with limit 1', async () => {
    const filters = { company: { include: ['stripe.com'] } }
    const response = await submit(sandbox.demoKey, { filters, limit: 1 })
    expect(response.status).toBe(422)
    expect(response.body.message).toContain('/enrich_profile/company')
    expect((await submit(sandbox.demoKey, { filters, limit: 2 })).status).toBe(202)
    expect((await submit(sandbox.demoKey, { filters: { ...filters, ...VPS }, limit: 1 })).status).toBe(202)
  })

  it('422 once the free quota is spent', async () => {
    const { key } = await sandbox.control.createAccount({ freeLeadSearches: 1 })
    expect((await submit(key, { filters: VPS })).status).toBe(202)
    const spent = await submit(key, { filters: VPS })
    expect(spent.status).toBe(422)
    expect(spent.body.message).toBe(
      'You are out of free lead finder requests. Please upgrade your plan to continue using this feature.',
    )
  })

  it('402 for enrichment without credits and phone without the add-on; a free search still runs to the end', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 0 })
    const broke = await submit(key, { filters: VPS, enrich_email_address: true })
    expect(broke.status).toBe(402)
    expect(broke.body).toEqual({
      success: false,
      message: 'You do not have enough tokens to use Lead Finder API.',
    })
    const free = await submit(key, { filters: VPS, limit: 5 })
    expect(free.status).toBe(202)
    const done = await finished(key, free.body.request_id)
    expect(done.body.leads).toHaveLength(5)
    await sandbox.control.setPlan(accountId, { phone: false })
    await sandbox.control.setCredits(accountId, 10)
    const phone = await submit(key, { filters: VPS, enrich_phone_number: true })
    expect(phone.status).toBe(402)
    expect(phone.body.message).toBe(
      "You don't have access to phone number enrichment feature. Please upgrade your plan.",
    )
  })

  it('404 with success false for an unknown id and another account’s id', async () => {
    const owner = await sandbox.control.createAccount()
    const stranger = await sandbox.control.createAccount()
    const id = (await submit(owner.key, { filters: VPS })).body.request_id
    for (const [key, requestId] of [
      [owner.key, 'missing'],
      [stranger.key, id],
    ]) {
      const response = await read(key, requestId)
      expect(response.status).toBe(404)
      expect(response.body).toEqual({ success: false, message: 'Lead finder request not found.' })
    }
  })
})
