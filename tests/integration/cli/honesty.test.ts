import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Papa from 'papaparse'
import { afterEach, describe, expect, it } from 'vitest'
import type { CliBed } from './harness'
import { peopleCsv, runCli, runShell, serviceEnv, startCliBed } from './harness'

let bed: CliBed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

interface Summary {
  jobId: string
  state: string
  rows: number
  skipped: number
  creditsConsumed: number
  requestsSent: number
  exitCode: number
  next?: string
}

function statuses(path: string): string[] {
  return Papa.parse<Record<string, string>>(readFileSync(path, 'utf8').replace(/^\ufeff/, ''), {
    header: true,
    skipEmptyLines: true,
  }).data.map((row) => row.Status ?? '')
}

async function posts(target: CliBed): Promise<number> {
  const log = await target.sandbox.control.log()
  return log.requests.filter((r) => r.method === 'POST' && r.path === '/async' && r.status !== 429).length
}

/** The first of the two chunks of ten gets a 500 after the service created its request: uncertain. */
const uncertainFirstPost = [{ endpoint: 'POST /async', kind: 'status500AfterCreate' as const, times: 1 }]

describe('the CLI tells what it did not do', () => {
  it('--on-uncertain skip: rows given up are counted in both summaries and the run exits 5', async () => {
    bed = await startCliBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const input = join(bed.dir, 'in.csv')
    writeFileSync(input, peopleCsv(20))
    const env = serviceEnv(bed, key)
    const dir = bed.dir
    const args = (json: boolean, output: string) => [
      '--chunk-size',
      '10',
      ...(json ? ['--json'] : []),
      'enrich',
      input,
      '-o',
      join(dir, output),
      '--on-uncertain',
      'skip',
    ]

    await bed.sandbox.control.setFaults(uncertainFirstPost)
    const json = await runCli(args(true, 'json.csv'), env)
    expect(json.code, json.stderr).toBe(5)
    const summary = JSON.parse(json.stdout) as Summary
    expect(summary).toMatchObject({ state: 'done', rows: 20, skipped: 10, exitCode: 5 })
    expect(summary.next).toMatch(/^10 row\(s\) were skipped, not enriched/)
    expect(summary.next).toMatch(/new output path/)
    expect(json.stderr).toContain(summary.next)
    expect(statuses(join(bed.dir, 'json.csv')).filter((status) => status === 'skipped')).toHaveLength(10)

    // The hint says the same command will not send them again: it does not, and stays exit 5.
    const sent = await posts(bed)
    const again = await runCli(args(true, 'json.csv'), env)
    expect(again.code, again.stderr).toBe(5)
    expect(JSON.parse(again.stdout)).toMatchObject({ jobId: summary.jobId, skipped: 10, requestsSent: 0 })
    expect(await posts(bed)).toBe(sent)

    await bed.sandbox.control.setFaults(uncertainFirstPost)
    const text = await runCli(args(false, 'text.csv'), env)
    expect(text.code, text.stderr).toBe(5)
    expect(text.stdout).toBe('')
    expect(text.stderr).toMatch(
      /enrichment job \S+: done\nrows 20 · sent 20 \(20 people\) · found \d+ · not found \d+ · skipped 10 · /,
    )
    expect(text.stderr).toMatch(/10 row\(s\) were skipped, not enriched/)

    // A job that gave nothing up still ends 0, and says so.
    const clean = await runCli(args(true, 'clean.csv'), env)
    expect(clean.code, clean.stderr).toBe(0)
    expect(JSON.parse(clean.stdout)).toMatchObject({ state: 'done', skipped: 0, exitCode: 0 })
    expect(JSON.parse(clean.stdout)).not.toHaveProperty('next')
  })

  it('counts skipped rows, duplicates included, not the leads sent', async () => {
    bed = await startCliBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const input = join(bed.dir, 'in.csv')
    // Every person twice: 20 rows, 10 leads, so a skipped chunk of 5 leads gives 10 rows up.
    const [header, ...lines] = peopleCsv(10).trimEnd().split('\n')
    writeFileSync(input, [header, ...lines, ...lines].join('\n') + '\n')
    await bed.sandbox.control.setFaults(uncertainFirstPost)
    const output = join(bed.dir, 'out.csv')
    const run = await runCli(
      ['--chunk-size', '5', '--json', 'enrich', input, '-o', output, '--on-uncertain', 'skip'],
      serviceEnv(bed, key),
    )
    expect(run.code, run.stderr).toBe(5)
    const skippedInOutput = statuses(output).filter((status) => status === 'skipped').length
    expect(skippedInOutput).toBe(10)
    const summary = JSON.parse(run.stdout) as Record<string, number>
    expect(summary).toMatchObject({ rows: 20, sent: 20, people: 10, skipped: skippedInOutput })
    // One vocabulary: every row of the file is counted once, under the status it has in the output.
    const statusesOut = statuses(output)
    expect(summary.found).toBe(statusesOut.filter((status) => status === 'found').length)
    expect(summary.notFound).toBe(statusesOut.filter((status) => status === 'not_found').length)
    const parts = ['found', 'notFound', 'invalid', 'skipped', 'failed', 'pending']
    expect(parts.reduce((sum, part) => sum + (summary[part] ?? 0), 0)).toBe(summary.rows)
  })

  it('account --sandbox --state-dir shows the balance the enrich runs of that state dir left', async () => {
    bed = await startCliBed()
    const state = join(bed.dir, 'state')
    const input = join(bed.dir, 'in.csv')
    writeFileSync(input, peopleCsv(12))

    const fresh = join(bed.dir, 'fresh')
    mkdirSync(fresh)
    const before = await runCli(['--sandbox', '--state-dir', fresh, '--json', 'account'])
    expect(before.code, before.stderr).toBe(0)
    const start = (JSON.parse(before.stdout) as { creditsLeft: number }).creditsLeft
    // Looking at a balance writes nothing.
    expect(readdirSync(fresh)).toEqual([])

    const enrich = [
      '--sandbox',
      '--state-dir',
      state,
      '--json',
      'enrich',
      input,
      '-o',
      join(bed.dir, 'out.csv'),
    ]
    const run = await runCli(enrich)
    expect(run.code, run.stderr).toBe(0)
    const spent = JSON.parse(run.stdout) as Summary
    expect(spent.creditsConsumed).toBeGreaterThan(0)
    expect(existsSync(join(state, 'sandbox'))).toBe(true)

    const after = await runCli(['--sandbox', '--state-dir', state, '--json', 'account'])
    expect(after.code, after.stderr).toBe(0)
    expect(JSON.parse(after.stdout)).toMatchObject({ creditsLeft: start - spent.creditsConsumed })
    const text = await runCli(['--sandbox', '--state-dir', state, 'account'])
    expect(text.stdout).toMatch(new RegExp(`: ${start - spent.creditsConsumed} credits left\\n$`))
    expect(text.stderr).toContain(join(state, 'sandbox'))

    // A second run in the same state dir resumes the job and its sandbox: nothing more is spent.
    const rerun = await runCli(enrich)
    expect(JSON.parse(rerun.stdout)).toMatchObject({ jobId: spent.jobId, requestsSent: 0 })
    const still = await runCli(['--sandbox', '--state-dir', state, '--json', 'account'])
    expect(JSON.parse(still.stdout)).toMatchObject({ creditsLeft: start - spent.creditsConsumed })

    const jobs = await runCli(['--state-dir', state, '--json', 'jobs'])
    expect(JSON.parse(jobs.stdout)).toMatchObject([
      { jobId: spent.jobId, state: 'done', creditsConsumed: spent.creditsConsumed },
    ])
  })

  it('the printed "run again" command runs as printed, whatever the paths hold', async () => {
    bed = await startCliBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const env = serviceEnv(bed, key)
    mkdirSync(join(bed.dir, 'in dir'))
    const input = join(bed.dir, 'in dir', "O'Brien's list.csv")
    writeFileSync(input, peopleCsv(20))
    const output = join(bed.dir, 'out & $HOME `x`.csv')

    await bed.sandbox.control.setFaults(uncertainFirstPost)
    const first = await runCli(['--chunk-size', '10', '--json', 'enrich', input, '-o', output], env)
    expect(first.code, first.stderr).toBe(5)
    const { jobId } = JSON.parse(first.stdout) as Summary
    const hint = /^Run again with --on-uncertain skip .*?: (.*)$/m.exec(first.stderr)?.[1]
    expect(hint, first.stderr).toBeDefined()
    expect(hint).toMatch(/^npx tsx electron\/cli\/index\.ts /)

    // The hint, with the decision it asks for appended, resumes the same job: the same input and
    // output paths reached the CLI intact. The skipped rows make it exit 5, not 127 or 2 (usage).
    const pasted = await runShell(`${hint!} --on-uncertain skip`, env)
    expect(pasted.code, pasted.stderr).toBe(5)
    expect(JSON.parse(pasted.stdout)).toMatchObject({ jobId, state: 'done', skipped: 10 })
    expect(statuses(output).filter((status) => status === 'skipped')).toHaveLength(10)
  })
})
