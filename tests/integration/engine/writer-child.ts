/**
 * A process that writes a job through its `JobWriter` and dies by SIGKILL, for the crash tests:
 * `node --import tsx writer-child.ts <stateDir> <jobId> <mode>`.
 * - `saves`: saves again and again, a result batch every third time, printing `saved <n> <resultSeq>`
 *   once each save is on disk, until killed from outside;
 * - `batch`: kills itself once a batch is on disk, before the record names it.
 */
import { JobLedger } from '../../../electron/engine/jobs/ledger'

const [stateDir, jobId, mode] = process.argv.slice(2) as [string, string, string]
const ledger = new JobLedger(stateDir)
const live = ledger.load(jobId)!
const writer = ledger.writer(jobId, () => live)
const apply = (seq: number): void => {
  if (mode === 'batch') process.kill(process.pid, 'SIGKILL')
  live.resultSeq = seq
}

for (let n = 1; ; n++) {
  live.requestsSent = n
  if (mode === 'batch' || n % 3 === 0) {
    await writer.appendResults({ chunkIndex: n, rows: [{ key: `k${n}`, status: 'found' }] }, apply)
  } else await writer.save()
  process.stdout.write(`saved ${n} ${live.resultSeq}\n`)
}
