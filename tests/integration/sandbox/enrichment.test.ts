import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import type { Sandbox } from '../../../electron/sandbox'
import { byStatus, call, leads, pollUntil, startTestSandbox } from './support'

const ROW_FIELDS = [
  'enriched',
  'contact_id',
  'custom_fields',
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
  'contact_email_address',
  'contact_email_address_status',
  'contact_email_address_provider',
  'email_provider',
  'contact_phone_number',
  'contact_phone_number_provider',
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
  'company_headquarters_city',
  'company_headquarters_country',
]

let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox.close())

async function submit(key: string, body: unknown) {
  return call(sandbox, 'POST', '/async', { key, body })
}

async function finished(key: string, id: string) {
  return pollUntil(() => call(sandbox, 'GET', `/async/${id}`, { key }), byStatus('terminated'))
}

describe('POST /async and GET /async/{id}', () => {
  it('accepts a batch with 201 {success, id, message} and answers 202 while processing', async () => {
    // Each lead takes 300 ms here, so the first poll surely sees the batch still running.
    const slow = await startTestSandbox({ leadWorkMs: 30_000 })
    onTestFinished(() => slow.close())
    const key = (await slow.control.createAccount()).key
    const created = await call(slow, 'POST', '/async', { key, body: { data: leads(3) } })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ success: true, id: expect.any(String), message: expect.any(String) })
    const running = await call(slow, 'GET', `/async/${created.body.id}`, { key })
    expect(running.status).toBe(202)
    expect(running.body).toMatchObject({
      id: created.body.id,
      status: 'processing',
      message: expect.any(String),
    })
    expect(running.body.credits_left).toEqual(expect.any(Number))
    expect(running.body).not.toHaveProperty('data')
    expect(running.body).not.toHaveProperty('summary')
  })

  it('terminates with 200, every row field, custom_fields as an array and summaries that add up', async () => {
    const { key } = await sandbox.control.createAccount()
    const created = await submit(key, { data: leads(30), enrich_phone_number: true })
    const done = await finished(key, created.body.id)
    expect(done.status).toBe(200)
    expect(done.body).not.toHaveProperty('message')
    const { summary, data } = done.body
    expect(data).toHaveLength(30)
    for (const row of data) {
      expect(Object.keys(row).sort()).toEqual([...ROW_FIELDS].sort())
      expect(row).not.toHaveProperty('company_head_quarters_city')
    }
    expect(data[4].custom_fields).toEqual([{ name: 'row', value: 'lead-4', position: 0 }])
    expect(summary.total).toBe(30)
    expect(
      summary.valid +
        summary.catch_all +
        summary.catch_all_not_safe +
        summary.undeliverable +
        summary.not_found,
    ).toBe(30)
    expect(summary.found).toBe(30 - summary.not_found)
    for (const part of ['email_enrichment', 'phone_enrichment', 'profile_enrichment']) {
      expect(summary[part].enriched + summary[part].not_enriched).toBe(30)
    }
    expect(summary.profile_enrichment.enriched).toBe(
      data.filter((row: { enriched: boolean }) => row.enriched).length,
    )
    expect(summary.phone_enrichment.enriched).toBeGreaterThan(0)
    expect(data.some((row: { enriched: boolean }) => !row.enriched)).toBe(true)
  })

  it('normalises the casing of names and keeps rows in input order', async () => {
    const { key } = await sandbox.control.createAccount()
    const created = await submit(key, {
      data: [
        {
          first_name: 'mARY',
          last_name: "o'NEIL",
          company_domain: 'Example-Shop.COM',
          custom_fields: { id: 'a' },
        },
      ],
    })
    const { data } = (await finished(key, created.body.id)).body
    expect(data[0].contact_first_name).toBe('Mary')
    expect(data[0].custom_fields[0].value).toBe('a')
  })

  it('charges 1 credit per email and 10 per phone found, and reports it in credits_consumed', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 1000 })
    const created = await submit(key, { data: leads(40, 'price'), enrich_phone_number: true })
    const { body } = await finished(key, created.body.id)
    const emails = body.data.filter((row: { contact_email_address_status: string }) =>
      ['deliverable', 'catch_all'].includes(row.contact_email_address_status),
    ).length
    const phones = body.data.filter(
      (row: { contact_phone_number: string | null }) => row.contact_phone_number,
    ).length
    expect(body.credits_consumed).toBe(emails + 10 * phones)
    expect(body.credits_left).toBe(1000 - body.credits_consumed)
    expect(await sandbox.control.balance(accountId)).toBe(1000 - body.credits_consumed)
    const { charges } = await sandbox.control.log()
    const mine = charges.filter((charge) => charge.requestId === created.body.id)
    expect(mine.reduce((sum, charge) => sum + charge.credits, 0)).toBe(body.credits_consumed)
  })

  it('charges undeliverable and not-found emails nothing, and catch_all only without verification', async () => {
    const { key } = await sandbox.control.createAccount({ credits: 1000 })
    const plain = (await finished(key, (await submit(key, { data: leads(40, 'ca') })).body.id)).body
    const verified = (
      await finished(key, (await submit(key, { data: leads(40, 'ca'), verify_catch_all: true })).body.id)
    ).body
    const statuses = (rows: { contact_email_address_status: string }[]) =>
      rows.map((row) => row.contact_email_address_status)
    expect(statuses(plain.data)).toContain('catch_all')
    expect(statuses(plain.data)).not.toContain('catch_all_safe')
    expect(statuses(verified.data)).toContain('catch_all_safe')
    expect(statuses(verified.data)).toContain('catch_all_not_safe')
    const count = (rows: { contact_email_address_status: string }[], charged: string[]) =>
      statuses(rows).filter((status) => charged.includes(status)).length
    expect(plain.credits_consumed).toBe(count(plain.data, ['deliverable', 'catch_all']))
    expect(verified.credits_consumed).toBe(count(verified.data, ['deliverable', 'catch_all_safe']))
    expect(verified.summary.catch_all_not_safe).toBe(count(verified.data, ['catch_all_not_safe']))
  })

  it('gives the same output for the same input (determinism)', async () => {
    const { key } = await sandbox.control.createAccount()
    const first = (await finished(key, (await submit(key, { data: leads(15, 'det') })).body.id)).body
    const second = (await finished(key, (await submit(key, { data: leads(15, 'det') })).body.id)).body
    expect(second.data).toEqual(first.data)
    expect(second.summary).toEqual(first.summary)
    const other = await startTestSandbox()
    try {
      const otherKey = (await other.control.createAccount()).key
      const created = await call(other, 'POST', '/async', { key: otherKey, body: { data: leads(15, 'det') } })
      const done = await pollUntil(
        () => call(other, 'GET', `/async/${created.body.id}`, { key: otherKey }),
        byStatus('terminated'),
      )
      expect(done.body.data).toEqual(first.data)
    } finally {
      await other.close()
    }
  })
})

describe('enrichment errors', () => {
  it.each([
    ['data missing', {}],
    ['data not an array', { data: { first_name: 'a' } }],
    ['data empty', { data: [] }],
    ['data holding numbers, strings and null', { data: [1, 'x', null] }],
    ['data holding an array', { data: [['Ada', 'Lovelace', 'example.com']] }],
    ['one item of data not an object', { data: [...leads(2), 42] }],
  ])('400 Bad request when %s', async (_case, body) => {
    await sandbox.control.clearLog()
    const response = await submit(sandbox.demoKey, body)
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ success: false, error: 'Bad request. Please check documentation' })
    // Refused whole: no request was created.
    const { requests } = await sandbox.control.log()
    expect(requests).toEqual([expect.not.objectContaining({ requestId: expect.anything() })])
  })

  it('accepts an empty lead object, as no field of a lead is required', async () => {
    expect((await submit(sandbox.demoKey, { data: [{}] })).status).toBe(201)
  })

  it('400 beyond 100 leads, 100 accepted', async () => {
    const tooMany = await submit(sandbox.demoKey, { data: leads(101) })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body).toEqual({
      success: false,
      error: 'No more than 100 contacts allowed in a single batch call',
    })
    expect((await submit(sandbox.demoKey, { data: leads(100) })).status).toBe(201)
  })

  it('402 for phone and catch-all without the add-on, and with an empty balance', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ phone: false, catchAll: false })
    const phone = await submit(key, { data: leads(1), enrich_phone_number: true })
    expect(phone.status).toBe(402)
    expect(phone.body.error).toBe(
      "You don't have access to phone number enrichment feature. Please upgrade your plan.",
    )
    const catchAll = await submit(key, { data: leads(1), verify_catch_all: true })
    expect(catchAll.status).toBe(402)
    expect(catchAll.body.error).toBe(
      "You don't have access to verify catch_all feature. Please upgrade your plan.",
    )
    await sandbox.control.setPlan(accountId, { phone: true, catchAll: true })
    expect(
      (await submit(key, { data: leads(1), enrich_phone_number: true, verify_catch_all: true })).status,
    ).toBe(201)
    await sandbox.control.setCredits(accountId, 0)
    const broke = await submit(key, { data: leads(1) })
    expect(broke.status).toBe(402)
    expect(broke.body).toEqual({ success: false, error: 'You ran out of credits' })
  })

  it('406 {error} without success for an unknown id and for another account’s id', async () => {
    const owner = await sandbox.control.createAccount()
    const stranger = await sandbox.control.createAccount()
    const created = await submit(owner.key, { data: leads(1) })
    for (const [key, id] of [
      [owner.key, 'no-such-id'],
      [stranger.key, created.body.id],
    ]) {
      const response = await call(sandbox, 'GET', `/async/${id}`, { key })
      expect(response.status).toBe(406)
      expect(response.body).toEqual({ error: 'Unvalid request_id.' })
    }
  })
})

describe('on_hold when the balance runs out', () => {
  it('pauses at zero without going negative, then resumes on its own after a top-up', async () => {
    const { key, accountId } = await sandbox.control.createAccount({ credits: 2 })
    const created = await submit(key, { data: leads(20, 'hold') })
    const held = await pollUntil(
      () => call(sandbox, 'GET', `/async/${created.body.id}`, { key }),
      byStatus('on_hold', 'terminated'),
    )
    expect(held.status).toBe(200)
    expect(held.body).toMatchObject({
      status: 'on_hold',
      credits_consumed: 2,
      credits_left: 0,
      message: 'Request is on hold: the credit balance reached zero. It resumes on its own after a top-up.',
    })
    expect(held.body).not.toHaveProperty('data')
    expect(await sandbox.control.balance(accountId)).toBe(0)
    await sandbox.control.topUp(accountId, 100)
    const done = await finished(key, created.body.id)
    expect(done.body.data).toHaveLength(20)
    expect(done.body.credits_left).toBe(102 - done.body.credits_consumed)
    expect(await sandbox.control.balance(accountId)).toBe(102 - done.body.credits_consumed)
  })

  it('pauses before a phone the balance cannot pay, says so truthfully, and resumes after a top-up', async () => {
    // A phone found costs 10 credits: a balance of 5 cannot pay it, and is never charged in part.
    const { key, accountId } = await sandbox.control.createAccount({ credits: 5 })
    const created = await submit(key, {
      data: leads(30, 'phone'),
      enrich_email_address: false,
      enrich_phone_number: true,
    })
    const id = created.body.id as string
    const read = () => call(sandbox, 'GET', `/async/${id}`, { key })
    const held = await pollUntil(read, byStatus('on_hold', 'terminated'))
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

    // A top-up too small resumes it, and it pauses again at the same lead with the new balance.
    await sandbox.control.topUp(accountId, 2)
    const again = await pollUntil(
      read,
      (response) => response.body.status === 'on_hold' && response.body.credits_left === 7,
    )
    expect(again.body.message).toBe(
      'Request is on hold: the balance (7 credits) cannot pay for the next result (10 credits). It resumes on its own after a top-up.',
    )
    expect(again.body.credits_consumed).toBe(0)

    await sandbox.control.topUp(accountId, 1000)
    const done = await finished(key, id)
    expect(done.body.data).toHaveLength(30)
    const phones = done.body.summary.phone_enrichment.enriched as number
    expect(phones).toBeGreaterThan(0)
    expect(done.body.credits_consumed).toBe(10 * phones)
    expect(await sandbox.control.balance(accountId)).toBe(1007 - 10 * phones)
  })
})
