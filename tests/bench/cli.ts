import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox } from '../../electron/sandbox'
import type { BenchContext } from './context'
import { benchRows, enrichmentTimeScale, idealWallMs, leadWorkMs, rateLimitPerMinute } from './enrichment'
import type { Figure } from './figures'
import { figure } from './figures'

const timeBinary = '/usr/bin/time'

interface ChildRun {
  code: number | null
  wallMs: number
  maxRssKb: number | null
  stdout: string
  stderr: string
}

/**
 * Runs the CLI in one Node process (tsx as a loader, not its own launcher, so that the process
 * measured is the CLI and not a parent waiting for it) under GNU time when present.
 */
function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<ChildRun> {
  const node = [process.execPath, '--import', 'tsx', 'electron/cli/index.ts', ...args]
  const withTime = existsSync(timeBinary)
  const [command, ...rest] = withTime ? [timeBinary, '-v', ...node] : node
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(command!, rest, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()))
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)
      resolve({
        code,
        wallMs: performance.now() - started,
        maxRssKb: rss ? Number(rss[1]) : null,
        stdout,
        stderr,
      })
    })
  })
}

export async function cliBench(ctx: BenchContext): Promise<Figure[]> {
  const count = ctx.quick ? 2_000 : 10_000
  const dir = mkdtempSync(join(tmpdir(), 'lk-bench-cli-'))
  const sandbox = await startSandbox({
    port: 0,
    timeScale: enrichmentTimeScale,
    seed: 5,
    rateLimitPerMinute,
    leadWorkMs,
    logLimit: 100_000,
  })
  try {
    const { key } = await sandbox.control.createAccount({ credits: 10 * count })
    const input = join(dir, 'contacts.csv')
    const lines = ['First Name,Last Name,Company Domain']
    for (const row of benchRows(count)) lines.push(`${row.first_name},${row.last_name},${row.company_domain}`)
    writeFileSync(input, lines.join('\n') + '\n')
    ctx.log(`cli: enrich ${count} rows`)
    const run = await runCli(
      [
        '--base-url',
        sandbox.baseUrl,
        '--time-scale',
        String(enrichmentTimeScale),
        '--rate-limit',
        String(rateLimitPerMinute),
        '--state-dir',
        join(dir, 'state'),
        '--json',
        'enrich',
        input,
        '-o',
        join(dir, 'out.csv'),
        '--email',
        '--on-uncertain',
        'skip',
      ],
      { LEADKEEPER_API_KEY: key },
    )
    if (run.code !== 0) throw new Error(`CLI exited ${run.code}: ${run.stderr.slice(-2000)}`)
    const summary = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as {
      requestsSent?: number
      state?: string
    }
    const ideal = idealWallMs(Math.ceil(count / 100), enrichmentTimeScale)
    const bench = `cli enrich ${count.toLocaleString('en-US')}`
    return [
      figure(
        bench,
        'wall time',
        run.wallMs / 1000,
        's',
        undefined,
        `process start to exit; job ${summary.state}, ${summary.requestsSent} requests; ideal ${(ideal / 1000).toFixed(1)} s (time scale ${enrichmentTimeScale})`,
      ),
      figure(bench, 'wall / ideal', run.wallMs / ideal, '×', { max: 1.1 }, 'includes Node + tsx start-up'),
      figure(
        bench,
        'peak memory (max RSS)',
        run.maxRssKb === null ? null : run.maxRssKb / 1024,
        'MB',
        undefined,
        run.maxRssKb === null ? '/usr/bin/time missing' : 'GNU time -v of the CLI process',
      ),
    ]
  } finally {
    await sandbox.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
