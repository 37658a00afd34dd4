import { spawn } from 'node:child_process'
import { controlClient } from '../../electron/sandbox'
import type { SandboxControl } from '../../electron/sandbox'

export interface SandboxProcess {
  baseUrl: string
  control: SandboxControl
  close: () => Promise<void>
}

/**
 * The sandbox as its own Node process (`electron/sandbox/cli.ts`, the command a user runs), so the
 * service's own work does not share the event loop of the client being measured, as the real
 * service never does. Flags are the command's own (`npm run sandbox -- --help`).
 */
export function startSandboxProcess(flags: Record<string, string | number>): Promise<SandboxProcess> {
  const args = Object.entries({ port: 0, ...flags }).flatMap(([name, value]) => [`--${name}`, String(value)])
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/sandbox/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code} before listening: ${stderr}`)))
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString()
      const listening = /Sandbox listening on (\S+)\nBase URL: (\S+)\n/.exec(stdout)
      if (!listening) return
      child.stdout.removeAllListeners('data')
      child.stdout.resume()
      resolve({
        baseUrl: listening[2]!,
        control: controlClient(listening[1]!),
        close: async () => {
          if (child.exitCode === null) child.kill('SIGTERM')
          await exited
        },
      })
    })
  })
}
