import 'fake-indexeddb/auto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp, h, watch, type App } from 'vue'
import { createPinia } from 'pinia'
import { NConfigProvider } from 'naive-ui'
import type { Bridge, ChannelName } from '@shared/contract'
import { provideBridge } from '@/bridge'
import ListPageWarmUp from '@/features/lists/ListPageWarmUp.vue'
import { useJobsStore } from '@/stores/jobs'

let app: App | undefined
afterEach(() => {
  app?.unmount()
  document.body.innerHTML = ''
})

/** A window's bridge that answers nothing and notes every call and subscription made through it. */
function watchingBridge(): { bridge: Bridge; asked: string[] } {
  const asked: string[] = []
  const bridge = {
    invoke: (channel: ChannelName) => {
      asked.push(channel)
      return new Promise(() => undefined)
    },
    on: (event: string) => {
      asked.push(`on ${event}`)
      return () => undefined
    },
  } as Bridge
  return { bridge, asked }
}

describe('the list page warm-up', () => {
  it('draws the list page parts out of the page, a part at a time, asks the backend nothing and leaves nothing', async () => {
    const { bridge, asked } = watchingBridge()
    provideBridge(bridge)
    const root = document.createElement('div')
    document.body.append(root)
    let done = false
    let warmUp: { element: HTMLElement; drawn: number } | null = null
    const seen: string[] = []
    app = createApp({
      render: () =>
        h(NConfigProvider, null, () =>
          done
            ? null
            : h(ListPageWarmUp, {
                ref: (instance: unknown) => {
                  if (instance) warmUp = instance as { element: HTMLElement; drawn: number }
                },
                onDone: () => (done = true),
              }),
        ),
    })
    const pinia = createPinia()
    app.use(pinia)
    // The shell has made the jobs store (and its subscriptions) by the time the app is idle.
    useJobsStore(pinia)
    asked.length = 0
    app.mount(root)
    expect(warmUp).not.toBeNull()
    const element = warmUp!.element
    // What it holds as each part is drawn.
    watch(
      () => warmUp!.drawn,
      () => seen.push(element.textContent ?? ''),
      { flush: 'post' },
    )
    let last = ''
    await vi.waitFor(() => {
      // Never in the page: nothing of it can be seen, clicked or found by a selector.
      expect(element.isConnected).toBe(false)
      expect(document.body.textContent).not.toContain('Work email')
      expect(done).toBe(true)
      last = element.textContent ?? ''
    })
    // The parts came one after another: the run panel, then the filters and menus, then the grid.
    expect(seen).toHaveLength(3)
    expect(seen[0]).toContain('Work email')
    expect(seen[0]).not.toContain('Safe to send')
    expect(seen[1]).toContain('Safe to send')
    expect(seen[1]).not.toContain('A name')
    // All drawn at the end: the run panel, the filters, the menus, the grid with its tagged cells
    // (a grid out of the page has no size: it draws a few rows of its first columns).
    for (const text of ['Work email', 'Safe to send', 'Export', 'A name', 'Found', 'Deliverable'])
      expect(last, `"${text}" drawn`).toContain(text)
    expect(asked).toEqual([])
    app.unmount()
    app = undefined
    expect(element.childElementCount).toBe(0)
  })
})
