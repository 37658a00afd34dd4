import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach } from 'vitest'
import type { ChannelInput, ChannelName, ChannelOutput, ResultRow } from '@shared/contract'
import { provideBridge } from '@/bridge'
import { db } from '@/db/schema'
import { startTestBackend, type TestBackend } from '../../../support/backend'
import { inProcessBridge, type Interceptor, type TestBridge } from '../../../support/bridge'

/** A new window as the stores see it: its own bridge to `bed` and its own Pinia, as after a reload. */
export function openWindow(bed: TestBackend, intercept?: Interceptor): TestBridge {
  const bridge = inProcessBridge(bed, intercept)
  provideBridge(bridge)
  setActivePinia(createPinia())
  return bridge
}

/** The backend asked directly, as no window does: what it holds. */
export async function ask<C extends ChannelName>(
  bed: TestBackend,
  channel: C,
  input: ChannelInput<C>,
): Promise<ChannelOutput<C>> {
  const result = await inProcessBridge(bed).invoke(channel, input as never)
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`)
  return result.data
}

/** Result rows of a job the backend holds that no window has acknowledged. */
export async function unacknowledged(bed: TestBackend, jobId: string): Promise<number> {
  const page = await ask(bed, 'jobs/unacknowledged', { jobId })
  return page.batches.reduce((sum, batch) => sum + batch.rows.length, 0)
}

/** Every result row the backend holds for a job, in the order stored: what was paid for. */
export async function allResults(bed: TestBackend, jobId: string): Promise<ResultRow[]> {
  const rows: ResultRow[] = []
  let after = 0
  for (;;) {
    const page = await ask(bed, 'jobs/results', { jobId, after })
    for (const batch of page.batches) rows.push(...batch.rows)
    after = page.cursor
    if (page.complete) return rows
  }
}

/**
 * A real backend and sandbox for each test of a store, and the windows on it: `reopen` opens a new
 * one (as after a reload), the last of which closes with the backend after the test. `clear` empties
 * the app's database before each test.
 */
export function storeTestBed(options: { clear?: boolean } = {}) {
  let bed: TestBackend | undefined
  let bridge: TestBridge | undefined
  beforeEach(async () => {
    bed = await startTestBackend()
    if (options.clear) await Promise.all(db.tables.map((table) => table.clear()))
  })
  afterEach(async () => {
    bridge?.close()
    bridge = undefined
    await bed?.close()
  })
  const current = {
    get bed(): TestBackend {
      if (!bed) throw new Error('no backend outside a test')
      return bed
    },
    get bridge(): TestBridge {
      if (!bridge) throw new Error('no window open: reopen() first')
      return bridge
    },
    reopen(intercept?: Interceptor): void {
      bridge = openWindow(current.bed, intercept)
    },
  }
  return current
}
