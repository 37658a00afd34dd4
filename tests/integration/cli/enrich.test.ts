import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Papa from 'papaparse'
import { afterEach, describe, expect, it } from 'vitest'
import type { CliBed } from './harness'
import { finished, peopleCsv, runCli, serviceEnv, spawnCli, startCliBed } from './harness'
import { peopleWorkbook, readBack } from '../../support/workbooks'

let bed: CliBed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

function readOutput(path: string): { bom: boolean; rows: Record<string, string>[]; fields: string[] } {
  const text = readFileSync(path, 'utf8')
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\ufeff/, ''), {
    header: true,
    skipEmptyLines: true,
  })
  return { bom: text.startsWith('\ufeff'), rows: parsed.data, fields: parsed.meta.fields ?? [] }
}

async function posts(target: CliBed): Promise<number> {
  const log = await target.sandbox.control.log()
  return log.requests.filter((r) => r.method === 'POST' && r.path === '/async' && r.status !== 429).length
}

describe('leadkeeper enrich', () => {
  it('maps columns by itself, keeps every input column, neutralises formulas and resumes instead of paying twice', async () => {
    bed = await startCliBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const input = join(bed.dir, 'in.csv')
    writeFileSync(
      input,
      '\ufeffPrénom;Nom;Société;Site web\n'.replace(/;/g, ',') +
        'Ada,Lovelace,Analytical,https://www.analytical.com/about\n=cmd,Turing,"@Bletchley",bletchley.com\n',
    )
    const output = join(bed.dir, 'out.csv')
    const first = await runCli(['--json', 'enrich', input, '-o', output], serviceEnv(bed, key))
    expect(first.code, first.stderr).toBe(0)
    const summary = JSON.parse(first.stdout) as Record<string, unknown>
    expect(summary).toMatchObject({ state: 'done', rows: 2, exitCode: 0 })
    const out = readOutput(output)
    expect(out.bom).toBe(true)
    expect(out.fields.slice(0, 4)).toEqual(['Prénom', 'Nom', 'Société', 'Site web'])
    expect(out.fields.slice(-3)).toEqual(['Status', 'Result from', 'Note'])
    expect(out.rows[1]?.['Prénom']).toBe("'=cmd")
    expect(out.rows[1]?.['Société']).toBe("'@Bletchley")
    expect(out.rows[0]?.['Company domain']).toBe('analytical.com')

    const written = readFileSync(output, 'utf8')
    const again = await runCli(['--json', 'enrich', input, '-o', output], serviceEnv(bed, key))
    expect(again.code).toBe(0)
    expect((JSON.parse(again.stdout) as { jobId: string }).jobId).toBe(summary.jobId)
    expect(await posts(bed)).toBe(1)
    // The resumed run writes the same file again, from the results it already had.
    expect(readFileSync(output, 'utf8')).toBe(written)
    // The same job written again for importing into another system: values as they are, and nothing
    // paid again (whom the file is for is no part of the job).
    const asIs = await runCli(
      ['--json', 'enrich', input, '-o', output, '--csv-for', 'import'],
      serviceEnv(bed, key),
    )
    expect(asIs.code, asIs.stderr).toBe(0)
    expect(readOutput(output).rows[1]).toMatchObject({ Prénom: '=cmd', Société: '@Bletchley' })
    expect(await posts(bed)).toBe(1)
    const wrong = await runCli(['enrich', input, '-o', output, '--csv-for', 'crm'], serviceEnv(bed, key))
    expect(wrong.code).toBe(2)
  })

  it('says on stderr when the service cannot be reached and when it retries, then finishes every row', async () => {
    bed = await startCliBed({ leadWorkMs: 10_000 })
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const input = join(bed.dir, 'people.csv')
    writeFileSync(input, peopleCsv(30))
    const output = join(bed.dir, 'people-out.csv')
    const child = spawnCli(['enrich', input, '-o', output], serviceEnv(bed, key))
    const ended = finished(child)
    // Once the chunk is sent (it takes 3 s to process at this scale), the service goes away for 2 s.
    const target = bed
    await expect
      .poll(async () => (await target.sandbox.control.log()).requests.some((r) => r.method === 'POST'), {
        timeout: 20_000,
      })
      .toBe(true)
    await bed.sandbox.control.outage(2_000)
    const run = await ended
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(
      /^Can't reach the service \(GET \/async\/:id: connection failed.*\) — retrying in \d+ s$/m,
    )
    expect(run.stderr).toMatch(/Reached the service again; carrying on\./)
    const rows = readOutput(output).rows
    expect(rows).toHaveLength(30)
    expect(rows.filter((row) => row.Status !== 'found' && row.Status !== 'not_found')).toEqual([])
    expect(await posts(bed)).toBe(1)
  })

  it('writes every row, marked, when no row can be sent, and sends nothing', async () => {
    bed = await startCliBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const input = join(bed.dir, 'none.csv')
    writeFileSync(
      input,
      'First Name,Last Name,Company Domain\nAda,Lovelace,not a domain\nAlan,,bletchley.com\n',
    )
    const output = join(bed.dir, 'none-out.csv')
    const run = await runCli(['enrich', input, '-o', output], serviceEnv(bed, key))
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/No row can be sent/)
    const out = readOutput(output)
    expect(out.rows.map((row) => row.Status)).toEqual(['invalid', 'invalid'])
    expect(out.rows[0]?.Note).toMatch(/company domain that can exist/)
    expect(await posts(bed)).toBe(0)
  })

  it('--map overrides the guesses; unmappable input is bad usage (exit 2) with advice', async () => {
    bed = await startCliBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const input = join(bed.dir, 'odd.csv')
    writeFileSync(input, 'who,surname_x,where\nAda,Lovelace,analytical.com\n')
    const refused = await runCli(['enrich', input, '-o', join(bed.dir, 'o.csv')], serviceEnv(bed, key))
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/--map/)
    const mapped = await runCli(
      [
        'enrich',
        input,
        '-o',
        join(bed.dir, 'o.csv'),
        '--map',
        'first_name=who',
        '--map',
        'last_name=surname_x',
        '--map',
        'company_domain=where',
      ],
      serviceEnv(bed, key),
    )
    expect(mapped.code, mapped.stderr).toBe(0)
    expect(['found', 'not_found']).toContain(readOutput(join(bed.dir, 'o.csv')).rows[0]?.Status)
  })

  it('exit 3 for a refused key or an insecure key file, exit 4 for no credits, a refused plan or the cap', async () => {
    bed = await startCliBed()
    const input = join(bed.dir, 'in.csv')
    writeFileSync(input, peopleCsv(30))
    const out = join(bed.dir, 'out.csv')
    const base = { LEADKEEPER_BASE_URL: bed.sandbox.baseUrl }

    const badKey = await runCli(['enrich', input, '-o', out], { ...base, LEADKEEPER_API_KEY: 'nope' })
    expect(badKey.code).toBe(3)
    expect(badKey.stderr).toMatch(/API key/)

    const keyFile = join(bed.dir, 'key')
    const { key, accountId } = await bed.sandbox.control.createAccount({ credits: 0, phone: false })
    writeFileSync(keyFile, key)
    chmodSync(keyFile, 0o644)
    const insecure = await runCli(['--key-file', keyFile, 'account'], base)
    expect(insecure.code).toBe(3)
    expect(insecure.stderr).toMatch(/chmod 600/)
    chmodSync(keyFile, 0o600)
    const account = await runCli(['--key-file', keyFile, '--json', 'account'], base)
    expect(JSON.parse(account.stdout)).toMatchObject({ creditsLeft: 0 })

    const broke = await runCli(['enrich', input, '-o', out], serviceEnv(bed, key))
    expect(broke.code).toBe(4)
    expect(broke.stderr).toMatch(/Top up/)
    await bed.sandbox.control.topUp(accountId, 1000)
    const plan = await runCli(
      ['enrich', input, '-o', join(bed.dir, 'p.csv'), '--phone'],
      serviceEnv(bed, key),
    )
    expect(plan.code).toBe(4)
    expect(plan.stderr).toMatch(/plan/)

    const capped = await runCli(
      ['--chunk-size', '10', '--json', 'enrich', input, '-o', join(bed.dir, 'c.csv'), '--max-credits', '15'],
      serviceEnv(bed, key),
    )
    expect(capped.code).toBe(4)
    expect(JSON.parse(capped.stdout)).toMatchObject({ state: 'capped' })
    const raised = await runCli(
      ['--chunk-size', '10', '--json', 'enrich', input, '-o', join(bed.dir, 'c.csv'), '--max-credits', '100'],
      serviceEnv(bed, key),
    )
    expect(JSON.parse(raised.stdout)).toMatchObject({ state: 'done', rows: 30 })
  })

  it('an uncertain chunk stops with exit 5 under ask (no terminal); skip and resubmit each finish it', async () => {
    bed = await startCliBed()
    const { key, accountId } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const dir = bed.dir
    const input = join(dir, 'in.csv')
    writeFileSync(input, peopleCsv(20))
    const env = serviceEnv(bed, key)
    const args = (out: string, policy: string) => [
      '--chunk-size',
      '10',
      '--json',
      'enrich',
      input,
      '-o',
      join(dir, out),
      '--on-uncertain',
      policy,
    ]

    await bed.sandbox.control.setFaults([{ endpoint: 'POST /async', kind: 'status500AfterCreate', times: 1 }])
    const asked = await runCli(args('skip.csv', 'ask'), env)
    expect(asked.code).toBe(5)
    expect(JSON.parse(asked.stdout)).toMatchObject({ state: 'needs_attention' })
    expect(asked.stderr).toMatch(/--on-uncertain skip/)
    const skipped = await runCli(args('skip.csv', 'skip'), env)
    // Rows given up are not enriched: the run needs attention.
    expect(skipped.code).toBe(5)
    const skippedRows = readOutput(join(bed.dir, 'skip.csv')).rows
    expect(skippedRows.filter((row) => row.Status === 'skipped')).toHaveLength(10)

    await bed.sandbox.control.setFaults([{ endpoint: 'POST /async', kind: 'status500AfterCreate', times: 1 }])
    const before = await bed.sandbox.control.balance(accountId)
    const resubmitted = await runCli(args('resubmit.csv', 'resubmit'), env)
    expect(resubmitted.code, resubmitted.stderr).toBe(0)
    const rows = readOutput(join(bed.dir, 'resubmit.csv')).rows
    expect(rows.every((row) => row.Status === 'found' || row.Status === 'not_found')).toBe(true)
    const summary = JSON.parse(resubmitted.stdout) as { creditsConsumed: number }
    // The first, uncertain submission was in fact received, so its charge comes on top of the job's own.
    expect(before - (await bed.sandbox.control.balance(accountId))).toBeGreaterThan(summary.creditsConsumed)
  })
})

describe('leadkeeper enrich with Excel workbooks', () => {
  it('reads the sheet that holds the list, names it, and writes every row back to a workbook', async () => {
    bed = await startCliBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const input = join(bed.dir, 'fair.xlsx')
    writeFileSync(input, await peopleWorkbook())
    const output = join(bed.dir, 'fair-out.xlsx')
    const run = await runCli(['--json', 'enrich', input, '-o', output], serviceEnv(bed, key))
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain(
      `Reading the sheet “People” of ${input}; the workbook also has “Read me”, “Empty” (pick one with --sheet).`,
    )
    const sheet = (await readBack(readFileSync(output))).worksheets[0]!
    expect(sheet.name).toBe('People')
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
    const header = (sheet.getRow(1).values as unknown[]).slice(1)
    expect(header.slice(0, 8)).toEqual([
      'First name',
      'Last name',
      'Company domain',
      'Met on',
      'Share',
      'Phone',
      'Score',
      'Note',
    ])
    // The enrichment's columns come after the input's.
    expect(header.slice(8)).toEqual(expect.arrayContaining(['Email', 'Status', 'Result from']))
    const status = header.indexOf('Status') + 1
    const rows = [2, 3].map((at) => sheet.getRow(at))
    expect(rows.map((row) => row.getCell(1).value)).toEqual(['Zoë', 'Ada'])
    expect(rows.map((row) => row.getCell(4).value)).toEqual(['2026-03-01', '2026-03-02'])
    for (const row of rows) expect(['found', 'not_found']).toContain(row.getCell(status).value)
    // Text that looks like a formula is written as text.
    expect(rows[0]!.getCell(8).value).toBe('=HYPERLINK("http://x")')
    expect(rows[0]!.getCell(8).formula).toBeUndefined()
    expect(await posts(bed)).toBe(1)
  })

  it('reads the sheet named by --sheet, and refuses a sheet the workbook does not have', async () => {
    bed = await startCliBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const input = join(bed.dir, 'fair.xlsx')
    writeFileSync(input, await peopleWorkbook())
    const missing = await runCli(
      ['enrich', input, '--sheet', 'Leads', '-o', join(bed.dir, 'x.csv')],
      serviceEnv(bed, key),
    )
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(
      'This workbook has no sheet “Leads”; its sheets: “Read me”, “People”, “Empty”.',
    )
    const output = join(bed.dir, 'fair-out.csv')
    const run = await runCli(['enrich', input, '--sheet', 'people', '-o', output], serviceEnv(bed, key))
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).not.toContain('Reading the sheet')
    const out = readOutput(output)
    expect(out.rows.map((row) => row['Last name'])).toEqual(['Brown', 'Lovelace'])
    expect(out.rows[0]?.['Note']).toBe(`'=HYPERLINK("http://x")`)
  })
})
