import 'fake-indexeddb/auto'
import { afterEach, expect, it, vi } from 'vitest'
import { createApp, h, type App } from 'vue'
import { createPinia } from 'pinia'
import { NConfigProvider } from 'naive-ui'
import type { Bridge } from '@shared/contract'
import { provideBridge } from '@/bridge'
import ListRunPanel from '@/features/lists/ListRunPanel.vue'
import { db, type ListRecord } from '@/db/schema'

let app: App | undefined
afterEach(() => {
  app?.unmount()
  app = undefined
  document.body.innerHTML = ''
  vi.restoreAllMocks()
})

const list: ListRecord = {
  id: 'L',
  name: 'Leads',
  createdAt: 0,
  updatedAt: 0,
  source: { fileName: 'leads.csv', size: 10, encoding: 'utf-8', delimiter: ',', hasHeader: true },
  columns: ['Name'],
  mapping: {},
  rowCount: 3,
  state: 'ready',
  jobIds: [],
  creditsSpent: 0,
}

it("has the library's people index read ahead as the run form shows, for the run's estimate", async () => {
  // A window's bridge that answers nothing: the panel asks the backend nothing to show its form.
  provideBridge({
    invoke: () => new Promise(() => undefined),
    on: () => () => undefined,
  } as unknown as Bridge)
  const reads = vi.spyOn(db.contactRevs, 'get')
  const root = document.createElement('div')
  document.body.append(root)
  app = createApp({ render: () => h(NConfigProvider, null, () => h(ListRunPanel, { list })) })
  app.use(createPinia())
  app.mount(root)
  expect(document.body.textContent).toContain('Work email')
  // The index is read once the page is idle: its stored revisions first.
  await vi.waitFor(() => expect(reads).toHaveBeenCalledWith('contacts'), 5_000)
})
