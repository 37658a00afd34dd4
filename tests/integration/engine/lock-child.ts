/**
 * A process that tries to lock a job when told to, for the lock race test:
 * `node --import tsx lock-child.ts <stateDir> <jobId>`. Prints `ready` once loaded, waits for a
 * line on stdin, then tries the lock, prints `won` or `lost`, and keeps what it won until killed.
 */
import { createInterface } from 'node:readline'
import { JobLedger } from '../../../electron/engine/jobs/ledger'

const [stateDir, jobId] = process.argv.slice(2) as [string, string]
const ledger = new JobLedger(stateDir)
process.stdout.write('ready\n')
createInterface({ input: process.stdin }).once('line', () => {
  const outcome = ledger.lock(jobId)
  process.stdout.write(outcome.ok ? 'won\n' : 'lost\n')
})
setInterval(() => undefined, 60_000)
