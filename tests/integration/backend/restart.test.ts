import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
})

/** The real `npm run web` entry as its own process, with its settings, ledger and sandbox under `home`. */
async function startApp(home: string): Promise<{ child: ChildProcess; socket: WebSocket }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'electron/web/start.ts', '--port', '0', '--json'],
    {
      env: {
        ...process.env,
        LEADKEEPER_HOME: home,
        LEADKEEPER_SANDBOX_TIME_SCALE: '0.02',
        LEADKEEPER_API_KEY: '',
        LEADKEEPER_KEY_FILE: '',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  children.push(child)
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the app exited with ${code}`)))
  })
  const { url, origin } = JSON.parse(line) as { url: string; origin: string }
  const token = new URL(url).searchParams.get('token')!
  const socket = new WebSocket(`${origin.replace('http', 'ws')}/ws?token=${token}`, { headers: { origin } })
  await new Promise((resolve, reject) => {
    socket.once('open', resolve)
    socket.once('error', reject)
  })
  return { child, socket }
}

let nextId = 1
function call(socket: WebSocket, channel: string, input?: unknown): Promise<{ ok: boolean; data?: unknown }> {
  const id = nextId++
  return new Promise((resolve) => {
    const onMessage = (raw: WebSocket.RawData) => {
      const message = JSON.parse(String(raw)) as { id?: number; result?: { ok: boolean; data?: unknown } }
      if (message.id !== id) return
      socket.off('message', onMessage)
      resolve(message.result!)
    }
    socket.on('message', onMessage)
    socket.send(JSON.stringify({ id, channel, input }))
  })
}

describe('the app killed in the middle of an enrichment', () => {
  it('resumes the job when it starts again: every row comes home once, nothing is sent twice', async () => {
    const home = mkdtempSync(join(tmpdir(), 'leadkeeper-restart-'))
    const first = await startApp(home)
    const rows = Array.from({ length: 600 }, (_, index) => ({
      key: `row-${index}`,
      first_name: `First${index}`,
      last_name: `Last${index}`,
      company_domain: `company${index}.example.com`,
    }))
    const staged = await call(first.socket, 'jobs/stageRows', { rows })
    const { stagingId } = staged.data as { stagingId: string }
    const started = await call(first.socket, 'jobs/startEnrichment', {
      jobId: 'list-restart-run-1',
      stagingId,
      label: 'Restart',
      options: { email: true, phone: false, catchAll: false },
    })
    expect(started.ok).toBe(true)
    // Killed while requests are out: some submitted, none finished. Asked for up to 10 s, not the
    // default second: on a busy machine the app's first answers alone can take that long.
    await expect
      .poll(
        async () => {
          const job = await call(first.socket, 'jobs/get', { jobId: 'list-restart-run-1' })
          return (job.data as { chunkStates: Record<string, number> }).chunkStates.submitted ?? 0
        },
        { timeout: 10_000, interval: 20 },
      )
      .toBeGreaterThan(0)
    first.child.kill('SIGKILL')
    await new Promise((resolve) => first.child.once('exit', resolve))

    const second = await startApp(home)
    const stateOf = async () =>
      (await call(second.socket, 'jobs/get', { jobId: 'list-restart-run-1' })).data as {
        state: string
        chunkStates: Record<string, number>
      }
    await expect
      .poll(async () => (await stateOf()).state, { timeout: 60_000 })
      .toMatch(/^(done|needs_attention)$/)
    const settled = await stateOf()
    if (settled.state === 'needs_attention') {
      // Killed during a POST: its outcome is unknown, so the job asks instead of sending it again.
      expect(settled.chunkStates.uncertain).toBeGreaterThan(0)
      await call(second.socket, 'jobs/resolveUncertain', { jobId: 'list-restart-run-1', action: 'skip' })
      await expect.poll(async () => (await stateOf()).state, { timeout: 60_000 }).toBe('done')
    }
    const keys: string[] = []
    let cursor = 0
    for (;;) {
      const page = await call(second.socket, 'jobs/results', { jobId: 'list-restart-run-1', after: cursor })
      const data = page.data as { batches: { rows: { key: string }[] }[]; cursor: number; complete: boolean }
      for (const batch of data.batches) for (const row of batch.rows) keys.push(row.key)
      cursor = data.cursor
      if (data.complete) break
    }
    expect(keys).toHaveLength(600)
    expect(new Set(keys).size).toBe(600)
    // Six chunks, none failed: what the first life had submitted was polled, not sent again.
    const { chunkStates } = await stateOf()
    expect((chunkStates.done ?? 0) + (chunkStates.skipped ?? 0)).toBe(6)
    expect(chunkStates.failed).toBeUndefined()
  })
})
