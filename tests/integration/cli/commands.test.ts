import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Papa from 'papaparse'
import { afterEach, describe, expect, it } from 'vitest'
import type { CliBed } from './harness'
import { finished, runCli, serviceEnv, spawnCli, startCliBed } from './harness'

let bed: CliBed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

function csvRows(path: string): Record<string, string>[] {
  return Papa.parse<Record<string, string>>(readFileSync(path, 'utf8').replace(/^\ufeff/, ''), {
    header: true,
    skipEmptyLines: true,
  }).data
}

describe('leadkeeper search and lookup commands', () => {
  it('leads: writes the found leads to CSV and a JSON summary', async () => {
    bed = await startCliBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 100 })
    const filters = join(bed.dir, 'f.json')
    writeFileSync(filters, JSON.stringify({ job_title: { include: ['Engineer'] } }))
    const out = join(bed.dir, 'leads.csv')
    const result = await runCli(
      ['--json', 'leads', '--filters', filters, '--limit', '5', '-o', out],
      serviceEnv(bed, key),
    )
    expect(result.code, result.stderr).toBe(0)
    const rows = csvRows(out)
    expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'lead_search', state: 'done', rows: rows.length })
    expect(rows.length).toBeGreaterThan(0)
    expect(rows[0]).toHaveProperty('contact_full_name')
  })

  it('companies: fetches the requested pages; a bad filters file is bad usage', async () => {
    bed = await startCliBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const filters = join(bed.dir, 'f.json')
    writeFileSync(filters, JSON.stringify({ company_industry: { include: ['Software Development'] } }))
    const out = join(bed.dir, 'companies.csv')
    const result = await runCli(
      ['--json', 'companies', '--filters', filters, '--limit', '10', '--pages', '2', '-o', out],
      serviceEnv(bed, key),
    )
    expect(result.code, result.stderr).toBe(0)
    const rows = csvRows(out)
    expect(rows.length).toBe(20)
    expect(new Set(rows.map((row) => row.company_id)).size).toBe(20)

    const capped = await runCli(
      [
        '--json',
        'companies',
        '--filters',
        filters,
        '--limit',
        '10',
        '--all',
        '--max-credits',
        '25',
        '-o',
        join(bed.dir, 'c.csv'),
      ],
      serviceEnv(bed, key),
    )
    expect(capped.code).toBe(4)
    expect(JSON.parse(capped.stdout)).toMatchObject({ state: 'capped', rows: 20, creditsConsumed: 20 })

    writeFileSync(filters, '[1,2]')
    const bad = await runCli(['companies', '--filters', filters, '-o', out], serviceEnv(bed, key))
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/JSON object/)
    const tooBig = await runCli(
      ['companies', '--filters', filters, '--limit', '500', '-o', out],
      serviceEnv(bed, key),
    )
    expect(tooBig.code).toBe(2)
  })

  it('company and lead lookups print the profile; a miss says so', async () => {
    bed = await startCliBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 10 })
    const env = serviceEnv(bed, key)
    const company = await runCli(['--json', 'company', '--domain', 'Acme-Widgets.com'], env)
    expect(company.code, company.stderr).toBe(0)
    expect(JSON.parse(company.stdout)).toMatchObject({ company_domain: 'acme-widgets.com' })
    const lead = await runCli(
      ['lead', '--first-name', 'Ada', '--last-name', 'Lovelace', '--domain', 'acme-widgets.com'],
      env,
    )
    expect(lead.code, lead.stderr).toBe(0)
    expect(lead.stdout).toMatch(/contact_first_name: /)
    const miss = await runCli(['company', '--domain', 'nobody.invalid'], env)
    expect(miss.code).toBe(1)
    expect(miss.stderr).toMatch(/not found[\s\S]*check the identifiers/i)
    const usage = await runCli(['lead', '--first-name', 'Ada'], env)
    expect(usage.code).toBe(2)
  })

  it('account, jobs and the missing-address error', async () => {
    bed = await startCliBed()
    const { key, email } = await bed.sandbox.control.createAccount({ credits: 7 })
    const account = await runCli(['account'], serviceEnv(bed, key))
    expect(account.stdout).toBe(`${email}: 7 credits left\n`)
    const jobs = await runCli(['--json', '--state-dir', join(bed.dir, 'state'), 'jobs'])
    expect(JSON.parse(jobs.stdout)).toEqual([])
    const nowhere = await runCli(['account'], { LEADKEEPER_API_KEY: key })
    expect(nowhere.code).toBe(2)
    expect(nowhere.stderr).toMatch(/--base-url/)
    const noKey = await runCli(['account'], { LEADKEEPER_BASE_URL: bed.sandbox.baseUrl })
    expect(noKey.code).toBe(3)
    expect(noKey.stderr).toMatch(/LEADKEEPER_API_KEY/)
    expect((await runCli(['enrich'])).code).toBe(2)

    const input = join(bed.dir, 'in.csv')
    writeFileSync(input, 'first_name,last_name,company_domain\nAda,Lovelace,a.com\nAlan,Turing,b.com\n')
    const wrongAddress = await runCli(
      ['--json', '--chunk-size', '1', 'enrich', input, '-o', join(bed.dir, 'o.csv')],
      {
        LEADKEEPER_BASE_URL: bed.sandbox.url,
        LEADKEEPER_API_KEY: key,
      },
    )
    expect(wrongAddress.code).toBe(1)
    // The first refused submission stops the others: a wrong address is not retried chunk by chunk.
    expect(JSON.parse(wrongAddress.stdout)).toMatchObject({
      state: 'failed',
      submissions: 1,
      error: { code: 'not_found' },
    })
  })

  it('--sandbox runs without a key; the sandbox command serves until interrupted', async () => {
    bed = await startCliBed()
    const input = join(bed.dir, 'in.csv')
    writeFileSync(input, 'first_name,last_name,company_domain\nAda,Lovelace,analytical.com\n')
    const run = await runCli(['--sandbox', '--json', 'enrich', input, '-o', join(bed.dir, 'out.csv')])
    expect(run.code, run.stderr).toBe(0)
    // The embedded sandbox listens on a new port each run but keeps its state beside the ledger:
    // the same command resumes the same job and sends nothing.
    const again = await runCli(['--sandbox', '--json', 'enrich', input, '-o', join(bed.dir, 'out.csv')])
    expect(again.code, again.stderr).toBe(0)
    const [first, second] = [JSON.parse(run.stdout), JSON.parse(again.stdout)] as {
      jobId: string
      requestsSent: number
    }[]
    expect(second!.jobId).toBe(first!.jobId)
    expect(second!.requestsSent).toBe(0)

    const child = spawnCli(['--json', 'sandbox'])
    const exit = finished(child)
    let line = ''
    await new Promise<void>((resolve) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        line += chunk.toString('utf8')
        if (line.includes('\n')) resolve()
      })
    })
    const info = JSON.parse(line) as { baseUrl: string; demoKey: string }
    const account = await runCli(['--json', 'account'], {
      LEADKEEPER_BASE_URL: info.baseUrl,
      LEADKEEPER_API_KEY: info.demoKey,
    })
    expect(JSON.parse(account.stdout)).toHaveProperty('creditsLeft')
    child.kill('SIGINT')
    expect((await exit).code).toBe(0)
  })
})
