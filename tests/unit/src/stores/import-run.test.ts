import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ListRecord } from '@/db/schema'
import { useImportRun } from '@/stores/import-run'
import type { FromWorker, ToWorker } from '@/workers/import-protocol'
import { list as fixtureList } from '../support/list-fixtures'

/**
 * A stand-in for the import worker (the page's test environment has no workers; the real one runs
 * in the e2e suite's imports): it records what it was sent and whether it was ended, and answers a
 * start as the worker does when its file is read. `failing` makes it fail as it loads.
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
    if (message.type !== 'start' || StandInWorker.failing) return
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

beforeEach(() => {
  StandInWorker.made = []
  StandInWorker.failing = false
  vi.stubGlobal('Worker', StandInWorker)
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the import run’s worker', () => {
  it('is spawned ahead by prepare, and the run starts on it without spawning another', async () => {
    const run = useImportRun()
    run.prepare()
    run.prepare()
    expect(StandInWorker.made).toHaveLength(1)
    const outcome = await run.read(list, file)
    expect(outcome.type).toBe('done')
    expect(StandInWorker.made).toHaveLength(1)
    expect(starts(StandInWorker.made[0]!)).toBe(1)
    // Ended with its run, and not taken by the next: that one spawns its own.
    expect(StandInWorker.made[0]!.terminated).toBe(true)
    await run.read(list, file)
    expect(StandInWorker.made).toHaveLength(2)
  })

  it('is ended by release when no run takes it, and a run after spawns its own', async () => {
    const run = useImportRun()
    run.prepare()
    run.release()
    expect(StandInWorker.made[0]!.terminated).toBe(true)
    await run.read(list, file)
    expect(StandInWorker.made).toHaveLength(2)
    expect(starts(StandInWorker.made[0]!)).toBe(0)
    expect(starts(StandInWorker.made[1]!)).toBe(1)
  })

  it('is not spawned while a run goes on', async () => {
    const run = useImportRun()
    const reading = run.read(list, file)
    run.prepare()
    expect(StandInWorker.made).toHaveLength(1)
    await reading
  })

  it('that fails as it loads is dropped, and the run reports the failure of its own worker', async () => {
    StandInWorker.failing = true
    const run = useImportRun()
    run.prepare()
    await new Promise((next) => setTimeout(next))
    expect(StandInWorker.made[0]!.terminated).toBe(true)
    const outcome = await run.read(list, file)
    expect(StandInWorker.made).toHaveLength(2)
    expect(starts(StandInWorker.made[0]!)).toBe(0)
    expect(outcome).toEqual({
      type: 'failed',
      error: { code: 'internal', message: 'The script could not load' },
    })
  })
})
