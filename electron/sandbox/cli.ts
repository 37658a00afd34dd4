import { Command } from 'commander'
import { startSandbox } from './index'

const program = new Command()
  .name('leadkeeper-sandbox')
  .description('Simulated contact-enrichment service on 127.0.0.1, with synthetic data')
  .option('--port <port>', 'port to listen on (0 = any free port)', '8787')
  .option('--time-scale <factor>', 'multiplies every delay (0.01 = a hundred times faster)', '1')
  .option('--seed <seed>', 'seed of the synthetic world', '1')
  .option('--rate-limit <perMinute>', 'requests per minute per key', '100')
  .option('--demo-credits <credits>', 'starting balance of the demo account', '10000')
  .option('--demo-key <key>', 'key of the demo account', 'lk_sandbox_demo_key')
  .option('--state-dir <dir>', 'keep accounts and requests in <dir>/sandbox-state.json across restarts')
  .parse()

const opts = program.opts<{
  port: string
  timeScale: string
  seed: string
  rateLimit: string
  demoCredits: string
  demoKey: string
  stateDir?: string
}>()

const sandbox = await startSandbox({
  port: Number(opts.port),
  timeScale: Number(opts.timeScale),
  seed: Number(opts.seed),
  rateLimitPerMinute: Number(opts.rateLimit),
  demoCredits: Number(opts.demoCredits),
  demoKey: opts.demoKey,
  stateDir: opts.stateDir,
})

process.stdout.write(
  `Sandbox listening on ${sandbox.url}\nBase URL: ${sandbox.baseUrl}\nDemo key: ${sandbox.demoKey}\n`,
)

const stop = (): void => {
  void sandbox.close().then(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
