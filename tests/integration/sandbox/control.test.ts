import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { controlClient, type Sandbox } from '../../../electron/sandbox'
import { call, leads, startTestSandbox } from './support'

let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox.close())

describe('control interface', () => {
  it('serves the demo account with every add-on', async () => {
    const demo = await sandbox.control.account('demo')
    expect(demo).toMatchObject({ phone: true, catchAll: true, credits: 10_000 })
    expect((await call(sandbox, 'GET', '/account', { key: sandbox.demoKey })).status).toBe(200)
  })

  it('logs every API request with its parsed POST body, status, key and request id', async () => {
    await sandbox.control.clearLog()
    const body = { data: leads(2, 'logged') }
    const created = await call(sandbox, 'POST', '/async', { key: sandbox.demoKey, body })
    await call(sandbox, 'GET', `/async/${created.body.id}`, { key: sandbox.demoKey })
    const { requests } = await sandbox.control.log()
    expect(requests).toEqual([
      {
        at: expect.any(String),
        method: 'POST',
        path: '/async',
        status: 201,
        key: sandbox.demoKey,
        requestId: created.body.id,
        body,
      },
      expect.objectContaining({
        method: 'GET',
        path: `/async/${created.body.id}`,
        requestId: created.body.id,
      }),
    ])
    await sandbox.control.clearLog()
    expect((await sandbox.control.log()).requests).toEqual([])
  })

  it('creates accounts with a plan, changes credits exactly and reports the balance', async () => {
    const account = await sandbox.control.createAccount({
      email: 'plan@example.org',
      credits: 12.3,
      phone: false,
      catchAll: false,
      freeLeadSearches: 3,
    })
    expect(account).toEqual({
      accountId: expect.any(String),
      email: 'plan@example.org',
      key: expect.any(String),
    })
    expect(await sandbox.control.balance(account.accountId)).toBe(12.3)
    expect((await sandbox.control.topUp(account.accountId, 0.2)).credits).toBe(12.5)
    expect((await sandbox.control.setCredits(account.accountId, 7)).credits).toBe(7)
    const plan = await sandbox.control.setPlan(account.accountId, { phone: true, freeLeadSearches: null })
    expect(plan).toMatchObject({
      phone: true,
      catchAll: false,
      freeLeadSearches: null,
      freeCompanySearches: null,
    })
    expect((await sandbox.control.setCredits(account.accountId, -5)).credits).toBe(0)
  })

  it('refuses unknown accounts', async () => {
    await expect(sandbox.control.balance('nobody')).rejects.toThrow(/unknown account/)
  })

  it('goes out of reach for a while on request: connections refused, work going on, then the same port answers', async () => {
    const created = await call(sandbox, 'POST', '/async', {
      key: sandbox.demoKey,
      body: { data: leads(1, 'outage') },
    })
    await sandbox.control.outage(400)
    const refused = await fetch(`${sandbox.baseUrl}/account`, {
      headers: { 'X-API-Key': sandbox.demoKey },
    }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(TypeError)
    await new Promise((resolve) => setTimeout(resolve, 500))
    const polled = await call(sandbox, 'GET', `/async/${created.body.id}`, { key: sandbox.demoKey })
    expect(polled.status).toBeLessThan(300)
    const bad = await fetch(`${sandbox.url}/__sandbox/outage`, {
      method: 'POST',
      body: JSON.stringify({ ms: -1 }),
    })
    expect(bad.status).toBe(400)
  })
})

/** Starts `electron/sandbox/cli.ts` in its own process and reads the address and key it prints. */
async function spawnCli(args: string[]) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'electron/sandbox/cli.ts', '--port', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  try {
    const output = await new Promise<string>((resolve, reject) => {
      let text = ''
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString()
        if (text.includes('Demo key:')) resolve(text)
      })
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)))
    })
    return {
      child,
      output,
      url: /Sandbox listening on (\S+)/.exec(output)?.[1] ?? '',
      base: /Base URL: (\S+)/.exec(output)?.[1] ?? '',
      key: /Demo key: (\S+)/.exec(output)?.[1] ?? '',
    }
  } catch (error) {
    child.kill('SIGTERM')
    throw error
  }
}

describe('command line', () => {
  it('prints its address and the demo key, and serves the interface there', async () => {
    const { child, output, base, key } = await spawnCli(['--time-scale', '0.01'])
    try {
      expect(output).toMatch(/http:\/\/127\.0\.0\.1:\d+/)
      const response = await fetch(`${base}/account`, { headers: { 'X-API-Key': key } })
      expect(response.status).toBe(200)
    } finally {
      child.kill('SIGTERM')
    }
  })

  it('changes the values the interface does not show through flags', async () => {
    const { child, url, base, key } = await spawnCli([
      '--time-scale',
      '0.01',
      '--lead-search-max-limit',
      '5',
      '--default-free-company-searches',
      '0',
    ])
    try {
      const post = (path: string, apiKey: string, body: unknown) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'X-API-Key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      const filters = { contact_seniority: { include: ['vp'] } }
      expect((await post('/lead_finder/async', key, { filters, limit: 6 })).status).toBe(422)
      expect((await post('/lead_finder/async', key, { filters, limit: 5 })).status).toBe(202)
      const { key: newKey } = await controlClient(url).createAccount()
      const quota = await post('/company_finder/async', newKey, { filters: { is_b2b: true } })
      expect(quota.status).toBe(422)
    } finally {
      child.kill('SIGTERM')
    }
  })

  it('stops with an error on a flag value it cannot read', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'electron/sandbox/cli.ts', '--port', '0', '--default-enrich-email', 'maybe'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    )
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).not.toBe(0)
    expect(stderr).toContain('--default-enrich-email')
  })
})
