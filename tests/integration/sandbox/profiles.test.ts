import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../electron/sandbox'
import { getWorld } from '../../../electron/sandbox/world'
import { call, startTestSandbox } from './support'

const LEAD_PROFILE_FIELDS = [
  'contact_id',
  'contact_first_name',
  'contact_last_name',
  'contact_full_name',
  'contact_job_title',
  'contact_seniority',
  'contact_industry',
  'contact_network_headline',
  'contact_network_profile_url',
  'contact_location_continent',
  'contact_location_country',
  'contact_location_state',
  'contact_location_city',
  'company_name',
  'company_domain',
  'company_description',
  'company_network_url',
  'company_industry',
  'company_type',
  'company_founded_year',
  'company_employees_range_start',
  'company_employees_range_end',
  'company_headquarters_city',
  'company_headquarters_country',
  'company_keywords',
]

const LEAD_ROW_COMPANY_KEYS = [
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
]

const world = getWorld(1, { companies: 3000, peoplePerCompany: 10 })
const person = world.people[42]!
const openEnded = world.companies.find((company) => company.employeesEnd === null)!

let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox.close())

const company = (body: unknown, key: string | null = sandbox.demoKey) =>
  call(sandbox, 'POST', '/enrich_profile/company', { key, body })
const lead = (body: unknown, key: string | null = sandbox.demoKey) =>
  call(sandbox, 'POST', '/enrich_profile/lead', { key, body })

describe('POST /enrich_profile/company', () => {
  it('answers {success, data} with the profile quirks and charges nothing', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 5 })
    const response = await company({ company_domain: person.company.domain }, key)
    expect(response.status).toBe(200)
    expect(response.body.success).toBe(true)
    expect(response.body).not.toHaveProperty('request_id')
    const data = response.body.data
    expect(data.company_domain).toBe(person.company.domain)
    expect(data.company_website).toBe(data.company_domain)
    expect(Array.isArray(data.company_keywords)).toBe(true)
    if (data.company_type !== null) expect(data.company_type).toMatch(/^[a-z_-]+$/)
    for (const key of LEAD_ROW_COMPANY_KEYS) expect(data).toHaveProperty(key)
    for (const key of ['company_revenue_range', 'is_b2b', 'company_technologies'])
      expect(data).not.toHaveProperty(key)
    for (const key of [
      'company_address_city',
      'company_address_state',
      'company_address_country',
      'company_address_zipcode',
    ]) {
      expect(typeof data[key]).toBe('string')
    }
    expect(await sandbox.control.balance(accountId)).toBe(5)
  })

  it('leaves the range end null on an open-ended size range', async () => {
    const response = await company({ company_network_url: openEnded.networkUrl })
    expect(response.body.data.company_employees_range_start).toBe(10001)
    expect(response.body.data.company_employees_range_end).toBeNull()
  })

  it('accepts both identifiers together, the network URL first', async () => {
    const response = await company({
      company_network_url: openEnded.networkUrl,
      company_domain: person.company.domain,
    })
    expect(response.status).toBe(200)
    expect(response.body.data.company_domain).toBe(openEnded.domain)
  })

  it('accepts the key in the body as api_key', async () => {
    const response = await company({ company_domain: person.company.domain, api_key: sandbox.demoKey }, null)
    expect(response.status).toBe(200)
  })

  it('422 without an identifier, 404 when not found', async () => {
    const missing = await company({ company_domain: '  ' })
    expect(missing.status).toBe(422)
    expect(missing.body).toEqual({
      success: false,
      error: 'company_domain or company_linkedin_url is required.',
    })
    const unknown = await company({ company_domain: 'nobody.invalid' })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ success: false, error: 'Company was not found.' })
    const unknownUrl = await company({ company_network_url: 'https://network.example.com/company/nope' })
    expect(unknownUrl.status).toBe(404)
  })
})

describe('POST /enrich_profile/lead', () => {
  it('returns exactly the 25 fields and charges 0.1 credit per profile found', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 1 })
    const response = await lead({ network_url: person.networkUrl }, key)
    expect(response.status).toBe(200)
    expect(response.body.success).toBe(true)
    expect(Object.keys(response.body.data).sort()).toEqual([...LEAD_PROFILE_FIELDS].sort())
    expect(response.body.data).not.toHaveProperty('contact_email_address')
    expect(response.body.data).not.toHaveProperty('contact_phone_number')
    expect(response.body.data.contact_network_profile_url).toBe(person.networkUrl)
    expect(await sandbox.control.balance(accountId)).toBe(0.9)
    const { charges } = await sandbox.control.log()
    expect(charges.filter((charge) => charge.accountId === accountId)).toEqual([
      expect.objectContaining({ credits: 0.1, reason: 'lead_profile' }),
    ])
  })

  it('identifies by first_name + last_name + company_domain, in any casing', async () => {
    const response = await lead({
      first_name: person.firstName.toUpperCase(),
      last_name: person.lastName.toLowerCase(),
      company_domain: person.company.domain,
      company: 'ignored name',
    })
    expect(response.status).toBe(200)
    expect(response.body.data.contact_id).toBe(person.id)
    expect(response.body.data.contact_first_name).toBe(person.firstName)
  })

  it('reads only network_url when it is present', async () => {
    const response = await lead({
      network_url: person.networkUrl,
      first_name: 'Other',
      last_name: 'Person',
      company_domain: 'x.com',
    })
    expect(response.body.data.contact_id).toBe(person.id)
  })

  it('404 and no charge when no profile matches', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 1 })
    const response = await lead(
      { first_name: 'No', last_name: 'Body', company_domain: 'nowhere.invalid' },
      key,
    )
    expect(response.status).toBe(404)
    expect(response.body).toEqual({ success: false, error: 'Profile was not found.' })
    expect(await sandbox.control.balance(accountId)).toBe(1)
  })

  it('400 without data, 422 without identification, 402 below 0.1 credit', async () => {
    const empty = await lead({})
    expect(empty.status).toBe(400)
    expect(empty.body).toEqual({ success: false, error: 'Data parameter is required.' })
    for (const body of [
      { first_name: 'A', last_name: 'B' },
      { company: 'Acme', company_domain: 'acme.com' },
      { first_name: 'A', last_name: 'B', company: 'Acme' },
    ]) {
      const partial = await lead(body)
      expect(partial.status).toBe(422)
      expect(partial.body.error).toBe(
        'Linkedin url OR First_name, last_name, company and company domain is missing',
      )
    }
    const { key } = await sandbox.control.createAccount({ credits: 0 })
    const broke = await lead({ network_url: person.networkUrl }, key)
    expect(broke.status).toBe(402)
    expect(broke.body).toEqual({
      success: false,
      error: 'You do not have enough credits to perform a profile search.',
    })
  })

  it('accepts the key in the body as api_key', async () => {
    const response = await lead({ network_url: person.networkUrl, api_key: sandbox.demoKey }, null)
    expect(response.status).toBe(200)
  })
})
