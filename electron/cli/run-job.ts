import { createInterface } from 'node:readline/promises'
import type { JobManager } from '../engine/jobs/manager'
import type { JobRecord, UncertainPolicy } from '../domain/jobs'
import { progressReporter } from './progress'

/**
 * Follows a started job to its end, showing progress, and, with `--on-uncertain ask` on a terminal,
 * asks what to do about uncertain requests with the balance before and now as evidence.
 */
export async function followJob(
  manager: JobManager,
  job: JobRecord,
  policy: UncertainPolicy,
): Promise<JobRecord> {
  const reporter = progressReporter()
  const unsubscribe = manager.subscribe((event) => {
    if (event.jobId === job.id) reporter.onEvent(event)
  })
  const stop = (): void => {
    void manager.cancel(job.id)
  }
  process.once('SIGINT', stop)
  try {
    let result = await manager.settled(job.id)
    while (
      result.state === 'needs_attention' &&
      result.error?.code === 'outcome_unknown' &&
      policy === 'ask' &&
      interactive()
    ) {
      reporter.end()
      const action = await askAboutUncertain(manager, result)
      if (!action) break
      await manager.resolveUncertain(job.id, action)
      result = await manager.settled(job.id)
    }
    return result
  } finally {
    process.removeListener('SIGINT', stop)
    unsubscribe()
    reporter.end()
  }
}

function interactive(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true
}

async function askAboutUncertain(
  manager: JobManager,
  job: JobRecord,
): Promise<'resubmit' | 'skip' | undefined> {
  const evidence = await manager.uncertainEvidence(job.id)
  const lines = [
    `${evidence.chunks.length} request(s) may or may not have reached the service:`,
    ...evidence.chunks.map(
      (chunk) =>
        `  chunk ${chunk.index}: ${chunk.leads} lead(s), sent ${chunk.intentAt ?? '?'}, balance before ${chunk.balanceBefore ?? 'unknown'}`,
    ),
    `Balance at the start: ${evidence.balanceAtStart ?? 'unknown'}; now: ${evidence.balanceNow ?? 'unknown'}.`,
    `Resubmitting could charge up to ${evidence.maxDoubleCharge ?? 'an unknown number of'} credits twice if they were received.`,
  ]
  process.stderr.write(lines.join('\n') + '\n')
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    for (;;) {
      const answer = (await rl.question('[r]esubmit, [s]kip those rows, or [q]uit and decide later? '))
        .trim()
        .toLowerCase()
      if (answer.startsWith('r')) return 'resubmit'
      if (answer.startsWith('s')) return 'skip'
      if (answer.startsWith('q') || answer === '') return undefined
    }
  } finally {
    rl.close()
  }
}
