import { createPinia, setActivePinia } from 'pinia'
import type { ChannelInput, ChannelName, ChannelOutput } from '@shared/contract'
import { provideBridge } from '@/bridge'
import type { TestBackend } from '../../../support/backend'
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
