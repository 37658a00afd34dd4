import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CliBed } from './harness'
import { finished, peopleCsv, serviceEnv, spawnCli, startCliBed, timeScale } from './harness'

let bed: CliBed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

const entry = resolve(import.meta.dirname, '../../../electron/cli/index.ts')

/** Runs the CLI on a pseudo-terminal (util-linux `script`), so it sees a TTY on stdin and stderr. */
function onTerminal(args: string[], env: Record<string, string>) {
  const command = [
    process.execPath,
    '--import',
    'tsx',
    entry,
    '--time-scale',
    String(timeScale),
    '--poll-timeout',
    '3000',
    ...args,
  ].join(' ')
  return spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: resolve(import.meta.dirname, '../../..'),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'dumb', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
}

describe('on a terminal', () => {
  it.skipIf(process.platform !== 'linux')(
    '--on-uncertain ask shows the evidence, asks, and applies the answer',
    async () => {
      bed = await startCliBed()
      const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
      await bed.sandbox.control.setFaults([
        { endpoint: 'POST /async', kind: 'status500AfterCreate', times: 1 },
      ])
      const input = join(bed.dir, 'in.csv')
      writeFileSync(input, peopleCsv(20))
      const output = join(bed.dir, 'out.csv')
      const child = onTerminal(['--chunk-size', '10', 'enrich', input, '-o', output], serviceEnv(bed, key))
      let screen = ''
      const exit = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
      await new Promise<void>((asked) => {
        child.stdout.on('data', (chunk: Buffer) => {
          screen += chunk.toString('utf8')
          if (screen.includes('[r]esubmit')) asked()
        })
      })
      expect(screen).toMatch(/may or may not have reached the service/)
      expect(screen).toMatch(/Balance at the start: 1000; now: \d+/)
      expect(screen).toMatch(/\[#*\.*\] \d+%/)
      child.stdin.write('s\n')
      // The rows given up are not enriched: the run ends needing attention.
      expect(await exit).toBe(5)
      expect(readFileSync(output, 'utf8').match(/,skipped,/g)).toHaveLength(10)
    },
  )
})

describe('out of credits', () => {
  it('waits on_hold, says so, and finishes after a top-up without sending anything again', async () => {
    bed = await startCliBed()
    const { key, accountId } = await bed.sandbox.control.createAccount({ credits: 3 })
    const input = join(bed.dir, 'in.csv')
    writeFileSync(input, peopleCsv(20))
    const child = spawnCli(['enrich', input, '-o', join(bed.dir, 'out.csv')], serviceEnv(bed, key))
    let stderr = ''
    const exit = finished(child)
    await new Promise<void>((held) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8')
        if (stderr.includes('on_hold')) held()
      })
    })
    expect(stderr).toMatch(/Out of credits.*top-up/)
    await bed.sandbox.control.topUp(accountId, 100)
    const result = await exit
    expect(result.code, result.stderr).toBe(0)
    const log = await bed.sandbox.control.log()
    expect(log.requests.filter((r) => r.method === 'POST' && r.path === '/async')).toHaveLength(1)
  })
})
