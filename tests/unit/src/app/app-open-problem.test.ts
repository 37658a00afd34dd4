import 'fake-indexeddb/auto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp, type App } from 'vue'
import AppOpenProblem from '@/app/AppOpenProblem.vue'
import { db } from '@/db/schema'

let app: App | undefined
afterEach(() => {
  app?.unmount()
  app = undefined
  vi.restoreAllMocks()
  document.body.innerHTML = ''
})

function mounted(): void {
  const root = document.createElement('div')
  document.body.append(root)
  app = createApp(AppOpenProblem)
  app.mount(root)
}

describe('AppOpenProblem', () => {
  it('says nothing when the database opens', async () => {
    mounted()
    await db.open()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(document.querySelector('[data-test="db-open-problem"]')).toBeNull()
  })

  it('says once why the database did not open, and offers to try again', async () => {
    // The disk full as IndexedDB reports it: a write refused past the quota.
    vi.spyOn(db, 'open').mockRejectedValue(new DOMException('Quota exceeded.', 'QuotaExceededError'))
    mounted()
    await vi.waitFor(() => expect(document.querySelector('[data-test="db-open-problem"]')).not.toBeNull())
    const dialog = document.querySelector('[data-test="db-open-problem"]')!
    expect(dialog.textContent).toContain('Not enough free disk space')
    expect(dialog.textContent).toContain('Nothing was lost')
    expect(document.querySelector('[data-test="db-open-retry"]')?.textContent).toContain('Try again')
  })
})
