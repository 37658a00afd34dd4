import { createPinia, setActivePinia } from 'pinia'
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
