import 'fake-indexeddb/auto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp, h, ref, watch, type App } from 'vue'
import { createPinia } from 'pinia'
import { NConfigProvider } from 'naive-ui'
import type { Bridge, ChannelName } from '@shared/contract'
import { provideBridge } from '@/bridge'
import ListPageWarmUp from '@/features/lists/ListPageWarmUp.vue'
import { useJobsStore } from '@/stores/jobs'
import { db } from '@/db/schema'

let app: App | undefined
afterEach(() => {
  app?.unmount()
  document.body.innerHTML = ''
  vi.restoreAllMocks()
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

interface WarmUp {
  element: HTMLElement
  primed: number
  primers: number
  drawn: number
  completed: number
  parts: number
  rounds: number
}

/**
 * The page's clock as the warm-up reads it: it moves `partMs` each time a part is drawn (as the part
 * begins to be drawn) and `takeDownMs` each time a round is taken down, and stands still otherwise.
 */
function partsTake(warmUp: WarmUp, partMs: number, takeDownMs = 0): void {
  let now = 0
  vi.spyOn(performance, 'now').mockImplementation(() => now)
  watch(
    () => warmUp.drawn,
    (drawn, before) => {
      now += drawn > before ? partMs : takeDownMs
    },
    { flush: 'sync' },
  )
}

/**
 * The warm-up mounted as the shell mounts it, the jobs store made first (as the shell has by the
 * time the app is idle); `shown` false takes it down, as the shell does when a list is opened.
 */
function mountWarmUp(bridge: Bridge, asked?: string[]) {
  provideBridge(bridge)
  const root = document.createElement('div')
  document.body.append(root)
  const shown = ref(true)
  const state: { done: boolean; warmUp: WarmUp | null } = { done: false, warmUp: null }
  app = createApp({
    render: () =>
      h(NConfigProvider, null, () =>
        shown.value && !state.done
          ? h(ListPageWarmUp, {
              ref: (instance: unknown) => {
                if (instance) state.warmUp = instance as WarmUp
              },
              onDone: () => (state.done = true),
            })
          : null,
      ),
  })
  const pinia = createPinia()
  app.use(pinia)
  useJobsStore(pinia)
  if (asked) asked.length = 0
  app.mount(root)
  return { shown, state }
}

describe('the list page warm-up', () => {
  it('draws the list page parts out of the page, a part at a time, round after round, asks the backend nothing and leaves nothing', async () => {
    const { bridge, asked } = watchingBridge()
    // Nor the library: its run panel does not have the people's index read ahead, as a list's does.
    const library = vi.spyOn(db.contactRevs, 'get')
    const { state } = mountWarmUp(bridge, asked)
    const seen: string[] = []
    const warmUp = state.warmUp
    expect(warmUp).not.toBeNull()
    partsTake(warmUp!, 0)
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
      expect(state.done).toBe(true)
      last = element.textContent ?? ''
    }, 10_000)
    // The parts came one after another: the run panel, the summary and menus, the filters, then the
    // grid; then all were taken down and drawn again, round after round (several rounds, for the
    // code to be compiled as code that runs often is).
    const { parts, rounds } = warmUp!
    expect(parts).toBe(4)
    expect(rounds).toBeGreaterThan(1)
    expect(warmUp!.completed).toBe(rounds)
    expect(seen).toHaveLength(parts + (rounds - 1) * (parts + 1))
    for (let round = 1; round < rounds; round++) {
      const begins = round * (parts + 1) - 1
      expect(seen[begins], `round ${round + 1} begins with nothing drawn`).toBe('')
      expect(seen.slice(begins + 1, begins + 1 + parts)).toEqual(seen.slice(0, parts))
    }
    expect(seen[0]).toContain('Work email')
    expect(seen[0]).not.toContain('Export')
    expect(seen[1]).toContain('Export')
    expect(seen[1]).not.toContain('Safe to send')
    expect(seen[2]).toContain('Safe to send')
    expect(seen[2]).not.toContain('A name')
    // All drawn at the end: the run panel, the filters, the menus, the grid with its tagged cells
    // (a grid out of the page has no size: it draws a few rows of its first columns).
    for (const text of ['Work email', 'Safe to send', 'Export', 'A name', 'Found', 'Deliverable'])
      expect(last, `"${text}" drawn`).toContain(text)
    expect(asked).toEqual([])
    expect(library).not.toHaveBeenCalled()
    app!.unmount()
    app = undefined
    expect(element.childElementCount).toBe(0)
  })

  it('first draws the controls the parts are made of, a few at a time, out of the page, and takes them down before the first round', async () => {
    const { state } = mountWarmUp(watchingBridge().bridge)
    const warmUp = state.warmUp!
    partsTake(warmUp, 0)
    const element = warmUp.element
    const steps: { primed: number; drawn: number; holds: string[] }[] = []
    const kinds = ['.n-select', '.facet-select', '.n-switch', '.n-input-number', '.n-card']
    watch(
      () => warmUp.primed,
      (primed) =>
        steps.push({
          primed,
          drawn: warmUp.drawn,
          holds: kinds.filter((kind) => element.querySelector(kind) !== null),
        }),
      { flush: 'post' },
    )
    await vi.waitFor(() => expect(state.done).toBe(true), 10_000)
    expect(warmUp.primers).toBe(kinds.length)
    // One more kind of control at each step, before any part; then none, as the first part is drawn.
    expect(steps).toEqual([
      ...kinds.map((_, at) => ({ primed: at + 1, drawn: 0, holds: kinds.slice(0, at + 1) })),
      { primed: 0, drawn: 0, holds: [] },
    ])
    expect(element.isConnected).toBe(false)
  })

  it('stops when it is taken down while it draws the controls', async () => {
    const { shown, state } = mountWarmUp(watchingBridge().bridge)
    const warmUp = state.warmUp!
    partsTake(warmUp, 0)
    watch(
      () => warmUp.primed,
      (primed) => {
        if (primed === 2) shown.value = false
      },
      { flush: 'sync' },
    )
    await vi.waitFor(() => expect(shown.value).toBe(false))
    await new Promise((wait) => setTimeout(wait, 1_000))
    expect({ primed: warmUp.primed, drawn: warmUp.drawn, completed: warmUp.completed }).toEqual({
      primed: 2,
      drawn: 0,
      completed: 0,
    })
    expect(state.done).toBe(false)
  })

  // The first round is slow by nature and drawn whole; a busy computer's next step ends them there.
  it.each([
    // what holds the page, a part's ms, a taking down's ms, the parts left drawn
    ['a part after the first round', 60, 0, 1],
    ['taking a round down', 0, 60, 0],
  ])('ends its rounds when %s holds the page over 50 ms', async (_, partMs, takeDownMs, drawn) => {
    const { state } = mountWarmUp(watchingBridge().bridge)
    partsTake(state.warmUp!, partMs, takeDownMs)
    await vi.waitFor(() => expect(state.done).toBe(true), 10_000)
    expect(state.warmUp!.completed).toBe(1)
    expect(state.warmUp!.drawn).toBe(drawn)
  })

  it('draws every round when its parts take 50 ms or less', async () => {
    const { state } = mountWarmUp(watchingBridge().bridge)
    partsTake(state.warmUp!, 50, 50)
    await vi.waitFor(() => expect(state.done).toBe(true), 10_000)
    expect(state.warmUp!.completed).toBe(state.warmUp!.rounds)
  })

  it('stops when it is taken down before it is done (a list opened meanwhile)', async () => {
    const { shown, state } = mountWarmUp(watchingBridge().bridge)
    const warmUp = state.warmUp!
    partsTake(warmUp, 0)
    // Taken down as its second part is drawn, as the shell does when a list is opened.
    let at: { drawn: number; completed: number } | null = null
    watch(
      () => warmUp.drawn,
      (drawn) => {
        if (drawn !== 2 || at) return
        at = { drawn, completed: warmUp.completed }
        shown.value = false
      },
      { flush: 'sync' },
    )
    await vi.waitFor(() => expect(at).not.toBeNull())
    // Long enough for every round left to have been drawn had it gone on.
    await new Promise((wait) => setTimeout(wait, 2_000))
    expect({ drawn: warmUp.drawn, completed: warmUp.completed }).toEqual({ drawn: 2, completed: 0 })
    expect(state.done).toBe(false)
  })
})
