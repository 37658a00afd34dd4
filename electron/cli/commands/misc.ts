import { existsSync } from 'node:fs'
import type { GlobalOptions } from '../context'
import { openContext, positiveNumber, sandboxStateDir, stateDirFor } from '../context'
import { JobLedger } from '../../engine/jobs/ledger'
import { ExitCode } from '../exit-codes'

export async function accountCommand(global: GlobalOptions): Promise<number> {
  // The embedded sandbox's balance is the one saved beside the jobs (the state directory `jobs` lists),
  // so that it shows what earlier `--sandbox` runs spent. Where none was saved, a fresh sandbox answers
  // and nothing is written: looking at a balance leaves no state behind.
  const stateDir = stateDirFor(global)
  const saved = global.sandbox === true && existsSync(sandboxStateDir(stateDir))
  const context = await openContext(global, process.env, saved ? stateDir : undefined)
  try {
    if (global.sandbox)
      process.stderr.write(
        saved
          ? `Embedded sandbox, state saved in ${sandboxStateDir(stateDir)}.\n`
          : `Embedded sandbox with a fresh state: nothing saved in ${stateDir} yet.\n`,
      )
    const account = await context.client.account()
    if (global.json)
      process.stdout.write(JSON.stringify({ email: account.email, creditsLeft: account.credits_left }) + '\n')
    else process.stdout.write(`${account.email}: ${account.credits_left} credits left\n`)
    return ExitCode.done
  } finally {
    await context.close()
  }
}

export function jobsCommand(global: GlobalOptions): number {
  const jobs = new JobLedger(stateDirFor(global)).list()
  if (global.json) {
    process.stdout.write(
      JSON.stringify(
        jobs.map((job) => ({
          jobId: job.id,
          kind: job.kind,
          state: job.state,
          label: job.label,
          rows: job.counts.rows,
          done: job.counts.done,
          creditsConsumed: job.creditsConsumed,
          updatedAt: job.updatedAt,
          error: job.error,
        })),
      ) + '\n',
    )
    return ExitCode.done
  }
  if (jobs.length === 0) process.stdout.write(`No jobs in ${stateDirFor(global)}.\n`)
  for (const job of jobs) {
    process.stdout.write(
      `${job.id}  ${job.kind}  ${job.state}  ${job.counts.done}/${job.counts.rows} rows  ${job.creditsConsumed} credits  ${job.label ?? ''}\n`,
    )
  }
  return ExitCode.done
}

/** Starts the sandbox in this process and keeps it up until interrupted. */
export async function sandboxCommand(options: { port?: string }, global: GlobalOptions): Promise<number> {
  const { startSandbox } = await import('../../sandbox')
  const sandbox = await startSandbox({
    port: options.port === undefined ? 0 : Number(options.port),
    timeScale: positiveNumber(global.timeScale, '--time-scale') ?? 1,
  })
  const info = { url: sandbox.url, baseUrl: sandbox.baseUrl, demoKey: sandbox.demoKey }
  process.stdout.write(
    global.json
      ? JSON.stringify(info) + '\n'
      : `Sandbox on ${info.url}\nUse: LEADKEEPER_BASE_URL=${info.baseUrl} LEADKEEPER_API_KEY=${info.demoKey}\nPress Ctrl+C to stop.\n`,
  )
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await sandbox.close()
  return ExitCode.done
}
