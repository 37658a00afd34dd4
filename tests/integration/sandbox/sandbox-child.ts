/**
 * A sandbox in a process of its own, as the desktop app embeds it, for tests that prove it survives
 * an input: `node --import tsx sandbox-child.ts <stateDir> <embedded|standalone>`. Prints its
 * address and demo key as one JSON line, then serves until killed.
 */
import { startSandbox } from '../../../electron/sandbox'

const [stateDir, mode] = process.argv.slice(2) as [string, string]
const sandbox = await startSandbox(
  { port: 0, timeScale: 0.01, rateLimitPerMinute: 100_000, invalidKeyLimit: 100_000, stateDir },
  mode === 'embedded' ? {} : undefined,
)
process.stdout.write(
  JSON.stringify({ url: sandbox.url, baseUrl: sandbox.baseUrl, demoKey: sandbox.demoKey }) + '\n',
)
