import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startSandbox } from '../../../electron/sandbox'
import type { Sandbox, SandboxOptions } from '../../../electron/sandbox'

export const timeScale = 0.01
const repo = resolve(import.meta.dirname, '../../..')
const entry = join(repo, 'electron/cli/index.ts')

export interface CliResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface CliBed {
  sandbox: Sandbox
  dir: string
  close(): Promise<void>
}

export async function startCliBed(options: SandboxOptions = {}): Promise<CliBed> {
  const sandbox = await startSandbox({ port: 0, timeScale, seed: 11, ...options })
  const dir = mkdtempSync(join(tmpdir(), 'lk-cli-'))
  return {
    sandbox,
    dir,
    close: async () => {
      await sandbox.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Starts the CLI as a child process (asynchronously: the sandbox answers from this process). */
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}): ChildProcess {
  // A generous polling time-out: a loaded machine slows the CLI, not the sandbox's scaled clock.
  const base = ['--import', 'tsx', entry, '--time-scale', String(timeScale), '--poll-timeout', '3000']
  return spawn(process.execPath, [...base, ...args], {
    cwd: repo,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

export function finished(child: ChildProcess): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  return new Promise((resolvePromise) => {
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }))
  })
}

export function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return finished(spawnCli(args, env))
}

/** Runs a command line through bash from the CLI's working directory, as a user pastes a printed hint. */
export function runShell(command: string, env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return finished(
    spawn('bash', ['-c', command], {
      cwd: repo,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
}

export function serviceEnv(bed: CliBed, key: string): Record<string, string> {
  return { LEADKEEPER_BASE_URL: bed.sandbox.baseUrl, LEADKEEPER_API_KEY: key }
}

export function peopleCsv(count: number): string {
  const first = ['Ada', 'Alan', 'Grace', 'Linus', 'Barbara', 'Edsger', 'Frances', 'Donald']
  const last = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Liskov', 'Dijkstra', 'Allen', 'Knuth', 'Perlman']
  const lines = ['First Name,Last Name,Website,Comment']
  for (let i = 0; i < count; i++) {
    lines.push(
      `${first[i % first.length]},${last[Math.floor(i / first.length) % last.length]}${Math.floor(i / 72) || ''},https://www.firm${i % 23}.com/,row ${i}`,
    )
  }
  return lines.join('\n') + '\n'
}
