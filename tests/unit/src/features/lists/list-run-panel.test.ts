import 'fake-indexeddb/auto'
import { afterEach, expect, it, vi } from 'vitest'
import { createApp, h, type App } from 'vue'
import { createPinia } from 'pinia'
import { NConfigProvider } from 'naive-ui'
import type { Bridge } from '@shared/contract'
import { provideBridge } from '@/bridge'
import ListRunPanel from '@/features/lists/ListRunPanel.vue'
import { db } from '@/db/schema'
import { list } from '../../support/list-fixtures'

let app: App | undefined
afterEach(() => {
  app?.unmount()
  app = undefined
  document.body.innerHTML = ''
  vi.restoreAllMocks()
})

// A list never run, ready: its run form shows.
const ready = { ...list('L', 3), state: 'ready' as const }

it("has the library's people index read ahead as the run form shows, for the run's estimate", async () => {
  // A window's bridge that answers nothing: the panel asks the backend nothing to show its form.
  provideBridge({
    invoke: () => new Promise(() => undefined),
    on: () => () => undefined,
  } as unknown as Bridge)
  const reads = vi.spyOn(db.contactRevs, 'get')
  const root = document.createElement('div')
  document.body.append(root)
  app = createApp({ render: () => h(NConfigProvider, null, () => h(ListRunPanel, { list: ready })) })
  app.use(createPinia())
  app.mount(root)
  expect(document.body.textContent).toContain('Work email')
  // The index is read once the page is idle: its stored revisions first.
  await vi.waitFor(() => expect(reads).toHaveBeenCalledWith('contacts'), 5_000)
})
