import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import type { Sandbox, SandboxOptions } from '../../../electron/sandbox'
import { byStatus, call, leads, pollUntil, startTestSandbox, type ApiResponse } from './support'

const STATE_FILE = 'sandbox-state.json'
const LEAD_FILTERS = { contact_seniority: { include: ['vp'] } }
const COMPANY_FILTERS = { company_industry: { include: ['Software Development'] } }

let dir: string
let running: Sandbox[] = []

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandbox-state-'))
})

// Closed before the folder goes, as their last save writes into it; closing twice is harmless.
afterEach(async () => {
  await Promise.all(running.map((sandbox) => sandbox.close()))
  running = []
  await rm(dir, { recursive: true, force: true })
})

async function start(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startTestSandbox(options)
  running.push(sandbox)
  return sandbox
}

const ENRICHMENT = { data: leads(12, 'durable'), enrich_phone_number: true }
const LEAD_SEARCH = { filters: LEAD_FILTERS, limit: 15, enrich_email_address: true }
const COMPANY_SEARCH = { filters: COMPANY_FILTERS, limit: 20 }

interface Submitted {
  enrichment: string
  leadSearch: string
  companySearch: string
}

async function submitAll(sandbox: Sandbox, key: string): Promise<Submitted> {
  const enrichment = await call(sandbox, 'POST', '/async', { key, body: ENRICHMENT })
  const leadSearch = await call(sandbox, 'POST', '/lead_finder/async', { key, body: LEAD_SEARCH })
  const companySearch = await call(sandbox, 'POST', '/company_finder/async', { key, body: COMPANY_SEARCH })
  return {
    enrichment: enrichment.body.id,
    leadSearch: leadSearch.body.request_id,
    companySearch: companySearch.body.request_id,
  }
}

const paths = (ids: Submitted) => ({
  enrichment: `/async/${ids.enrichment}`,
  leadSearch: `/lead_finder/async/${ids.leadSearch}`,
  companySearch: `/company_finder/async/${ids.companySearch}`,
})

async function readAll(sandbox: Sandbox, key: string, ids: Submitted) {
  const read = (path: string) => call(sandbox, 'GET', path, { key })
  const { enrichment, leadSearch, companySearch } = paths(ids)
  return {
    enrichment: await read(enrichment),
    leadSearch: await read(leadSearch),
    companySearch: await read(companySearch),
  }
}

async function finishAll(sandbox: Sandbox, key: string, ids: Submitted) {
  const finished = (path: string) =>
    pollUntil(() => call(sandbox, 'GET', path, { key }), byStatus('terminated', 'on_hold'))
  const { enrichment, leadSearch, companySearch } = paths(ids)
  return {
    enrichment: await finished(enrichment),
    leadSearch: await finished(leadSearch),
    companySearch: await finished(companySearch),
  }
}

/** What must match an uninterrupted run: everything but the request id and the balance read at that moment. */
function outcome(response: ApiResponse) {
  const { id: _id, credits_left: _left, ...rest } = response.body
  return { status: response.status, ...rest }
}

describe('a sandbox restarted on the same state directory', () => {
  it('finishes interrupted requests as an uninterrupted run does, charging each lead once', async () => {
    const reference = await start()
    const referenceAccount = await reference.control.createAccount({ credits: 500 })
    const referenceIds = await submitAll(reference, referenceAccount.key)
    const expected = await finishAll(reference, referenceAccount.key, referenceIds)
    expect(expected.enrichment.body.status).toBe('terminated')
    expect(expected.enrichment.body.credits_consumed).toBeGreaterThan(0)
    expect(expected.leadSearch.body.credits_consumed).toBeGreaterThan(0)
    expect(expected.companySearch.body.companies.length).toBeGreaterThan(0)

    // Slow enough that nothing can finish before the close below.
    const first = await start({ stateDir: dir, timeScale: 0.5 })
    const account = await first.control.createAccount({ credits: 500 })
    const ids = await submitAll(first, account.key)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const before = await readAll(first, account.key, ids)
    expect(before.enrichment.body.status).toBe('processing')
    expect(before.enrichment.body.credits_consumed).toBeGreaterThan(0)
    expect(before.leadSearch.body.status).toBe('not_started')
    expect(before.companySearch.body.status).toBe('not_started')
    await first.close()

    const second = await start({ stateDir: dir })
    const after = await finishAll(second, account.key, ids)
    expect(outcome(after.enrichment)).toEqual(outcome(expected.enrichment))
    expect(outcome(after.leadSearch)).toEqual(outcome(expected.leadSearch))
    expect(outcome(after.companySearch)).toEqual(outcome(expected.companySearch))
    expect(await second.control.balance(account.accountId)).toBe(
      await reference.control.balance(referenceAccount.accountId),
    )
  })

  it('answers finished requests exactly as before the restart', async () => {
    const first = await start({ stateDir: dir })
    const { key } = await first.control.createAccount({ credits: 500 })
    const ids = await submitAll(first, key)
    await finishAll(first, key, ids)
    const before = await readAll(first, key, ids)
    await first.close()

    const second = await start({ stateDir: dir })
    const after = await readAll(second, key, ids)
    expect(after.enrichment.body).toEqual(before.enrichment.body)
    expect(after.leadSearch.body).toEqual(before.leadSearch.body)
    expect(after.companySearch.body).toEqual(before.companySearch.body)
    expect(after.enrichment.status).toBe(200)
  })

  it('keeps an on_hold enrichment on hold until a top-up, then resumes it', async () => {
    const reference = await start()
    const plenty = await reference.control.createAccount({ credits: 1000 })
    const referenceId = (
      await call(reference, 'POST', '/async', { key: plenty.key, body: { data: leads(20, 'hold') } })
    ).body.id
    const expected = await pollUntil(
      () => call(reference, 'GET', `/async/${referenceId}`, { key: plenty.key }),
      byStatus('terminated'),
    )

    const first = await start({ stateDir: dir })
    const { key, accountId } = await first.control.createAccount({ credits: 2 })
    const id = (await call(first, 'POST', '/async', { key, body: { data: leads(20, 'hold') } })).body.id
    await pollUntil(() => call(first, 'GET', `/async/${id}`, { key }), byStatus('on_hold', 'terminated'))
    await first.close()

    const second = await start({ stateDir: dir })
    const held = await call(second, 'GET', `/async/${id}`, { key })
    expect(held.status).toBe(200)
    expect(held.body).toMatchObject({ status: 'on_hold', credits_consumed: 2, credits_left: 0 })
    await second.control.topUp(accountId, 100)
    const done = await pollUntil(() => call(second, 'GET', `/async/${id}`, { key }), byStatus('terminated'))
    expect(outcome(done)).toEqual(outcome(expected))
    expect(await second.control.balance(accountId)).toBe(102 - done.body.credits_consumed)
  })

  it('keeps accounts, keys, exact balances, plans and the demo account', async () => {
    const first = await start({ stateDir: dir })
    const account = await first.control.createAccount({ credits: 12.3, phone: false, freeLeadSearches: 2 })
    const spare = await first.control.addKey(account.accountId)
    await first.control.deactivateKey(account.key)
    const used = await call(first, 'POST', '/lead_finder/async', {
      key: spare,
      body: { filters: LEAD_FILTERS },
    })
    expect(used.status).toBe(202)
    await first.control.setCredits('demo', 4321.7)
    const state = await first.control.account(account.accountId)
    expect(state.freeLeadSearches).toBe(1)
    await first.close()

    const second = await start({ stateDir: dir, demoCredits: 5 })
    expect(await second.control.account(account.accountId)).toEqual(state)
    expect((await call(second, 'GET', '/account', { key: account.key })).status).toBe(401)
    const read = await call(second, 'GET', '/account', { key: spare })
    expect(read.body).toEqual({ success: true, credits_left: 12, email: account.email })
    expect(second.demoKey).toBe(first.demoKey)
    expect(await second.control.balance('demo')).toBe(4321.7)
    const another = await second.control.createAccount()
    expect(another.accountId).not.toBe(account.accountId)
  })

  it('runs at once a phase that fell due while it was down, and keeps the schedule of the next one', async () => {
    // A thousandfold time scale: every phase lasts many minutes unless its deadline has already passed.
    const first = await start({ stateDir: dir, timeScale: 1000 })
    const { key } = await first.control.createAccount()
    const id = (await call(first, 'POST', '/company_finder/async', { key, body: COMPANY_SEARCH })).body
      .request_id
    await first.close()
    const file = join(dir, STATE_FILE)
    const saved = JSON.parse(await readFile(file, 'utf8'))
    saved.companySearches[0].nextAt = Date.now() - 1
    await writeFile(file, JSON.stringify(saved))

    const second = await start({ stateDir: dir, timeScale: 1000 })
    const read = () => call(second, 'GET', `/company_finder/async/${id}`, { key })
    expect((await pollUntil(read, byStatus('processing', 'terminated'))).body.status).toBe('processing')
  })
})

describe('the state file', () => {
  it('is replaced whole on close, with no temporary file left', async () => {
    const sandbox = await start({ stateDir: dir })
    await sandbox.control.createAccount({ email: 'kept@example.com' })
    await sandbox.close()
    const saved = JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8'))
    expect(saved.accounts.accounts.map((account: { email: string }) => account.email)).toContain(
      'kept@example.com',
    )
    expect(await readdir(dir)).toEqual([STATE_FILE])
  })

  it('is saved shortly after a change, without waiting for close', async () => {
    const sandbox = await start({ stateDir: dir })
    await sandbox.control.createAccount({ email: 'early@example.com' })
    // The time-out only guards against a hang.
    const deadline = Date.now() + 10_000
    while (!(await readSaved()).includes('early@example.com')) {
      if (Date.now() > deadline) throw new Error('the state file never held the new account')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })

  it('is set aside when torn, and the sandbox starts fresh with a warning', async () => {
    const first = await start({ stateDir: dir })
    const { key } = await first.control.createAccount()
    await first.close()
    const file = join(dir, STATE_FILE)
    const whole = await readFile(file, 'utf8')
    const torn = whole.slice(0, Math.floor(whole.length / 2))
    await truncate(file, torn.length)
    const warnings = captureStderr()

    const second = await start({ stateDir: dir })
    expect(warnings.join('')).toMatch(/sandbox-state\.json is unusable/)
    expect((await call(second, 'GET', '/account', { key })).status).toBe(401)
    expect((await call(second, 'GET', '/account', { key: second.demoKey })).status).toBe(200)
    const aside = (await readdir(dir)).filter((name) => name.startsWith(`${STATE_FILE}.corrupt-`))
    expect(aside).toHaveLength(1)
    expect(await readFile(join(dir, aside[0] as string), 'utf8')).toBe(torn)
  })

  it('is set aside when it is valid JSON of the wrong shape', async () => {
    await writeFile(join(dir, STATE_FILE), JSON.stringify({ version: 1, accounts: 'none' }))
    const warnings = captureStderr()
    const sandbox = await start({ stateDir: dir })
    expect(warnings.join('')).toMatch(/unusable/)
    expect((await call(sandbox, 'GET', '/account', { key: sandbox.demoKey })).status).toBe(200)
    expect((await readdir(dir)).some((name) => name.startsWith(`${STATE_FILE}.corrupt-`))).toBe(true)
  })
})

async function readSaved(): Promise<string> {
  return readFile(join(dir, STATE_FILE), 'utf8').catch(() => '')
}

/** Keeps the sandbox's warnings out of the test output and returns them. */
function captureStderr(): string[] {
  const written: string[] = []
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    written.push(String(chunk))
    return true
  })
  onTestFinished(() => spy.mockRestore())
  return written
}
