import { parseSandboxArgs, sandboxCommand } from './cli-flags'
import { startSandbox } from './index'

// Every option has its flag (`--help` lists them), so values the interface does not show can be changed.
const sandbox = await startSandbox(parseSandboxArgs(sandboxCommand(), process.argv.slice(2)))

process.stdout.write(
  `Sandbox listening on ${sandbox.url}\nBase URL: ${sandbox.baseUrl}\nDemo key: ${sandbox.demoKey}\n`,
)

const stop = (): void => {
  void sandbox.close().then(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
