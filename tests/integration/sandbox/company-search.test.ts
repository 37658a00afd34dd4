import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import type { Sandbox } from '../../../electron/sandbox'
import { byStatus, call, pollUntil, startTestSandbox } from './support'

const COMPANY_FIELDS = [
  'company_id',
  'company_name',
  'company_domain',
  'company_website',
  'company_network_url',
  'company_fundingdb_url',
  'company_logo_url',
  'company_industry',
  'company_type',
  'company_description',
  'company_founded_year',
  'company_keywords',
  'company_technologies',
  'company_employees_range_start',
  'company_employees_range_end',
  'company_employees_count',
  'company_employees_by_department',
  'company_size_range',
  'company_revenue_range',
  'company_locations_count',
  'company_last_funding_round_name',
  'company_last_amount_raised_usd',
  'company_total_amount_raised_usd',
  'company_last_funding_date',
  'company_head_quarters_city',
  'company_head_quarters_state',
  'company_head_quarters_country',
  'company_head_quarters_address',
  'company_active_job_postings_count',
]

const SOFTWARE = { company_industry: { include: ['Software Development'] } }

let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox.close())

const submit = (key: string, body: unknown) => call(sandbox, 'POST', '/company_finder/async', { key, body })
const read = (key: string, id: string) => call(sandbox, 'GET', `/company_finder/async/${id}`, { key })
const finished = (key: string, id: string) =>
  pollUntil(() => read(key, id), byStatus('terminated', 'on_hold'))
const search = async (key: string, body: unknown) => {
  const created = await submit(key, body)
  expect(created.status).toBe(202)
  return finished(key, created.body.request_id)
}

describe('POST /company_finder/async and GET /company_finder/async/{id}', () => {
  it('accepts with 202, answers 202 while running with decimal strings, then 200 with every field', async () => {
    const slow = await startTestSandbox({ searchQueueMs: 40_000, searchWorkMs: 40_000 })
    onTestFinished(() => slow.close())
    const { key } = await slow.control.createAccount({ credits: 100 })
    const created = await call(slow, 'POST', '/company_finder/async', {
      key,
      body: { filters: SOFTWARE, limit: 3 },
    })
    expect(created.status).toBe(202)
    expect(created.body).toEqual({
      success: true,
      message: expect.any(String),
      request_id: expect.any(String),
    })
    const id = created.body.request_id
    const readSlow = () => call(slow, 'GET', `/company_finder/async/${id}`, { key })
    const queued = await readSlow()
    expect(queued.status).toBe(202)
    expect(queued.body).toEqual({ id, status: 'not_started', credits_consumed: '0.0', credits_left: '100.0' })
    const processing = await pollUntil(readSlow, byStatus('processing', 'terminated'))
    expect(processing.body.status).toBe('processing')
    const done = await pollUntil(readSlow, byStatus('terminated'))
    expect(done.status).toBe(200)
    expect(done.body.companies).toHaveLength(3)
    expect(done.body.summary).toEqual({ companies_found: expect.any(Number), limit: 3, offset: 0 })
    expect(done.body.summary.companies_found).toBeGreaterThan(3)
    expect(done.body.credits_consumed).toBe('3.0')
    expect(done.body.credits_left).toBe('97.0')
    for (const company of done.body.companies) {
      expect(Object.keys(company).sort()).toEqual([...COMPANY_FIELDS].sort())
      expect(company.company_industry).toBe('Software Development')
      expect(company).not.toHaveProperty('company_headquarters_city')
    }
    const row = done.body.companies[0]
    const departments = Object.values(row.company_employees_by_department) as number[]
    expect(departments.reduce((a, b) => a + b, 0)).toBe(row.company_employees_count)
  })

  it('pages with offset, each page a new search charged on its own', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 100 })
    const all = await search(key, { filters: SOFTWARE, limit: 6 })
    const second = await search(key, { filters: SOFTWARE, limit: 3, offset: 3 })
    expect(second.body.companies).toEqual(all.body.companies.slice(3, 6))
    expect(second.body.summary.companies_found).toBe(all.body.summary.companies_found)
    expect(await sandbox.control.balance(accountId)).toBe(91)
  })

  it('ends terminated with no companies and no charge when nothing matches; outside-taxonomy values match nothing', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 10 })
    for (const filters of [
      { company_industry: { include: ['software development'] } },
      { company_technologies: { include: ['Cobol 2000'] } },
      { company: { include: ['NOBODY.example'] } },
    ]) {
      const done = await search(key, { filters })
      expect(done.body.status).toBe('terminated')
      expect(done.body.companies).toEqual([])
      expect(done.body.summary.companies_found).toBe(0)
    }
    expect(await sandbox.control.balance(accountId)).toBe(10)
  })

  it('matches the company domain case-sensitively', async () => {
    const probe = await search(sandbox.demoKey, { filters: SOFTWARE, limit: 1 })
    const domain = probe.body.companies[0].company_domain
    const exact = await search(sandbox.demoKey, { filters: { company: { include: [domain] } } })
    expect(exact.body.companies.map((c: { company_domain: string }) => c.company_domain)).toEqual([domain])
    const upper = await search(sandbox.demoKey, { filters: { company: { include: [domain.toUpperCase()] } } })
    expect(upper.body.companies).toEqual([])
  })

  it('ignores exclude and unknown keys such as job_title', async () => {
    const plain = await search(sandbox.demoKey, { filters: SOFTWARE, limit: 5 })
    const noisy = await search(sandbox.demoKey, {
      filters: {
        company_industry: { include: ['Software Development'], exclude: ['Software Development'] },
        job_title: { include: ['CEO'] },
        made_up: true,
      },
      limit: 5,
    })
    expect(noisy.body.companies).toEqual(plain.body.companies)
  })

  it('applies headcount, b2b, technology, revenue, funding and hiring filters', async () => {
    const filters = {
      company_headcount_min: 50,
      company_headcount_max: 5000,
      is_b2b: true,
      company_technologies: { include: ['Salesforce', 'HubSpot'] },
      company_is_hiring: true,
      company_hq_location: { include: ['Europe', 'germany', 'France'] },
    }
    const done = await search(sandbox.demoKey, { filters, limit: 200 })
    expect(done.body.companies.length).toBeGreaterThan(0)
    for (const company of done.body.companies) {
      expect(company.company_employees_count).toBeGreaterThanOrEqual(50)
      expect(company.company_employees_count).toBeLessThanOrEqual(5000)
      expect(company.company_technologies.some((t: string) => ['Salesforce', 'HubSpot'].includes(t))).toBe(
        true,
      )
      expect(company.company_active_job_postings_count).toBeGreaterThan(0)
      expect(['Germany', 'France']).toContain(company.company_head_quarters_country)
    }
    const funded = await search(sandbox.demoKey, {
      filters: {
        company_funding_round: { include: ['Series A'] },
        company_revenue_range: { include: ['$1M-10M'] },
      },
    })
    for (const company of funded.body.companies) {
      expect(company.company_last_funding_round_name).toBe('Series A')
      expect(company.company_revenue_range).toBe('$1M-10M')
    }
  })
})

describe('company search limits', () => {
  it.each([
    [0, 100],
    [-5, 100],
    ['lots', 100],
    [undefined, 100],
    [200, 200],
    [1, 1],
    ['50', 50],
    // Not an integer: read as non-numeric (the sandbox's reading), never cut to 1.
    [1.5, 100],
    ['1.5', 100],
    [0.5, 100],
    [true, 100],
  ])('limit %o becomes %i', async (limit, expected) => {
    const done = await search(sandbox.demoKey, { filters: { is_b2b: true }, limit })
    expect(done.body.summary.limit).toBe(expected)
    expect(done.body.companies).toHaveLength(expected)
  })

  it.each([201, 200.5, '201'])('422 with the quota text above 200 (%o)', async (limit) => {
    const response = await submit(sandbox.demoKey, { filters: SOFTWARE, limit })
    expect(response.status).toBe(422)
    expect(response.body).toEqual({
      success: false,
      message:
        'You are out of free company finder requests. Please upgrade your plan to continue using this feature.',
    })
  })

  it.each([
    [-10, 0],
    [-1.5, 0],
    [2.5, 0],
    ['x', 0],
    ['3', 3],
    [3, 3],
  ])('offset %o becomes %i', async (offset, expected) => {
    const done = await search(sandbox.demoKey, { filters: SOFTWARE, limit: 2, offset })
    expect(done.body.summary.offset).toBe(expected)
  })

  it('400 when filters are missing, empty, blank or only ignored keys', async () => {
    for (const body of [
      {},
      { filters: {} },
      { filters: { company_industry: { include: [] } } },
      { filters: { company_industry: { include: [''] } } },
      { filters: { company_industry: { exclude: ['Banking'] } } },
      { filters: { job_title: { include: ['CEO'] }, unknown: 'x' } },
    ]) {
      const response = await submit(sandbox.demoKey, body)
      expect(response.status).toBe(400)
      expect(response.body).toEqual({
        success: false,
        message: 'Filters parameter is invalid. Include values can not be blank',
      })
    }
  })

  it('422 once the free quota is spent', async () => {
    const { key } = await sandbox.control.createAccount({ freeCompanySearches: 2 })
    expect((await submit(key, { filters: SOFTWARE })).status).toBe(202)
    expect((await submit(key, { filters: SOFTWARE })).status).toBe(202)
    const spent = await submit(key, { filters: SOFTWARE })
    expect(spent.status).toBe(422)
    expect(spent.body.message).toBe(
      'You are out of free company finder requests. Please upgrade your plan to continue using this feature.',
    )
  })

  it('404 for an unknown id and another account’s id', async () => {
    const owner = await sandbox.control.createAccount()
    const stranger = await sandbox.control.createAccount()
    const id = (await submit(owner.key, { filters: SOFTWARE })).body.request_id
    for (const [key, requestId] of [
      [owner.key, 'missing'],
      [stranger.key, id],
    ]) {
      const response = await read(key, requestId)
      expect(response.status).toBe(404)
      expect(response.body).toEqual({ success: false, message: 'Company finder request not found.' })
    }
  })
})

describe('company search credits', () => {
  it('402 on an empty balance', async () => {
    const { key } = await sandbox.control.createAccount({ credits: 0 })
    const response = await submit(key, { filters: SOFTWARE })
    expect(response.status).toBe(402)
    expect(response.body).toEqual({
      success: false,
      message: 'You do not have enough tokens to use Company Finder API.',
    })
  })

  it('on_hold with nothing charged when the balance cannot cover one company, and never resumes', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 0.5 })
    const id = (await submit(key, { filters: SOFTWARE, limit: 5 })).body.request_id
    const held = await finished(key, id)
    expect(held.status).toBe(200)
    expect(held.body).toEqual({ id, status: 'on_hold', credits_consumed: '0.0', credits_left: '0.5' })
    await sandbox.control.topUp(accountId, 100)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const still = await read(key, id)
    expect(still.body.status).toBe('on_hold')
    expect(still.body).not.toHaveProperty('companies')
    expect(await sandbox.control.balance(accountId)).toBe(100.5)
  })

  it('returns only the companies the balance pays for', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 2.5 })
    const done = await search(key, { filters: SOFTWARE, limit: 5 })
    expect(done.body.companies).toHaveLength(2)
    expect(done.body.credits_consumed).toBe('2.0')
    expect(done.body.credits_left).toBe('0.5')
    expect(await sandbox.control.balance(accountId)).toBe(0.5)
  })
})
