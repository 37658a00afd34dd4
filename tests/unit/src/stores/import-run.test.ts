import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ListRecord } from '@/db/records'
import { useImportRun } from '@/stores/import-run'
import type { FromWorker, ToWorker } from '@/workers/import-protocol'
import { list as fixtureList } from '../support/list-fixtures'

/**
 * A stand-in for an import worker (the page's test environment has no workers; the real ones run
 * in the e2e suite's imports): it records what it was sent and whether it was ended, and answers a
 * start in the store role as the worker does when its file is read (the check worker answers the
 * store worker only). `failing` makes it fail as it loads.
 */
class StandInWorker {
  static made: StandInWorker[] = []
  static failing = false
  onmessage: ((event: { data: FromWorker }) => void) | null = null
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null
  received: ToWorker[] = []
  terminated = false

  constructor() {
    StandInWorker.made.push(this)
    if (StandInWorker.failing) {
      setTimeout(() =>
        this.onerror?.({ message: 'The script could not load', preventDefault: () => undefined }),
      )
    }
  }

  postMessage(message: ToWorker): void {
    this.received.push(message)
    // A worker that failed to load never answers.
    if (message.type !== 'start' || message.role !== 'store' || StandInWorker.failing) return
    const done: FromWorker = {
      type: 'done',
      result: {
        parse: {
          rows: 1,
          bytes: 10,
          width: 2,
          widest: 2,
          header: null,
          ragged: { short: 0, long: 0, examples: [] },
          strayQuotes: { count: 0, lines: [] },
        },
        validation: { rows: 1, counts: {} } as never,
      },
    }
    setTimeout(() => this.onmessage?.({ data: done }))
  }

  terminate(): void {
    this.terminated = true
  }
}

const list: ListRecord = fixtureList('L', 1)
const file = new File(['a,b\n'], 'people.csv')
const starts = (worker: StandInWorker) => worker.received.filter((message) => message.type === 'start').length
/** The roles each worker was started in, in the order they were made. */
const roles = () =>
  StandInWorker.made.map((worker) =>
    worker.received.flatMap((message) => (message.type === 'start' ? [message.role] : [])).join(),
  )

beforeEach(() => {
  StandInWorker.made = []
  StandInWorker.failing = false
  vi.stubGlobal('Worker', StandInWorker)
  // Four cores: an import runs on two workers (`importWorkerCount`).
  vi.spyOn(navigator, 'hardwareConcurrency', 'get').mockReturnValue(4)
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('the import run’s workers', () => {
  it('are spawned ahead by prepare, two, and the run starts on them without spawning others', async () => {
    const run = useImportRun()
    run.prepare()
    run.prepare()
    expect(StandInWorker.made).toHaveLength(2)
    const outcome = await run.read(list, file)
    expect(outcome.type).toBe('done')
    expect(roles()).toEqual(['store', 'check'])
    // Ended with their run, and not taken by the next: that one spawns its own.
    expect(StandInWorker.made.every((worker) => worker.terminated)).toBe(true)
    await run.read(list, file)
    expect(roles()).toEqual(['store', 'check', 'store', 'check'])
  })

  it('rehearse the file as they are spawned ahead, each before its start, when given the file', async () => {
    const run = useImportRun()
    const rehearsal = {
      file,
      options: { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 2 },
      mapping: {},
    }
    run.prepare(rehearsal)
    expect(StandInWorker.made.map((worker) => worker.received)).toEqual([
      [{ type: 'rehearse', ...rehearsal }],
      [{ type: 'rehearse', ...rehearsal }],
    ])
    await run.read(list, file)
    expect(StandInWorker.made.map((worker) => worker.received.map((message) => message.type))).toEqual([
      ['rehearse', 'start'],
      ['rehearse', 'start'],
    ])
    // Spawned ahead without the file, they wait for their start alone.
    run.prepare()
    expect(StandInWorker.made.slice(2).map((worker) => worker.received)).toEqual([[], []])
  })

  it('rehearse again when the preview changes, without spawning others', async () => {
    const run = useImportRun()
    const first = {
      file,
      options: { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 2 },
      mapping: {},
    }
    const changed = { ...first, options: { ...first.options, delimiter: ';', width: 1 } }
    run.prepare(first)
    run.prepare(changed)
    expect(StandInWorker.made).toHaveLength(2)
    const both = [
      { type: 'rehearse', ...first },
      { type: 'rehearse', ...changed },
    ]
    expect(StandInWorker.made.map((worker) => worker.received)).toEqual([both, both])
  })

  it('are ended by release when no run takes them, and a run after spawns its own', async () => {
    const run = useImportRun()
    run.prepare()
    run.release()
    expect(StandInWorker.made.map((worker) => worker.terminated)).toEqual([true, true])
    await run.read(list, file)
    expect(roles()).toEqual(['', '', 'store', 'check'])
  })

  it('are one on two cores, which checks the rows itself', async () => {
    vi.spyOn(navigator, 'hardwareConcurrency', 'get').mockReturnValue(2)
    const run = useImportRun()
    run.prepare()
    expect(StandInWorker.made).toHaveLength(1)
    expect((await run.read(list, file)).type).toBe('done')
    expect(roles()).toEqual(['store'])
    expect(StandInWorker.made[0]!.received[0]).not.toHaveProperty('peer')
  })

  it('are not spawned while a run goes on', async () => {
    const run = useImportRun()
    const reading = run.read(list, file)
    run.prepare()
    expect(StandInWorker.made).toHaveLength(2)
    await reading
  })

  it('that fail as they load are dropped, and the run reports the failure of its own workers', async () => {
    StandInWorker.failing = true
    const run = useImportRun()
    run.prepare()
    await new Promise((next) => setTimeout(next))
    expect(StandInWorker.made.map((worker) => worker.terminated)).toEqual([true, true])
    const outcome = await run.read(list, file)
    expect(StandInWorker.made).toHaveLength(4)
    expect(starts(StandInWorker.made[0]!) + starts(StandInWorker.made[1]!)).toBe(0)
    expect(outcome).toEqual({
      type: 'failed',
      error: { code: 'internal', message: 'The script could not load' },
    })
  })
})
