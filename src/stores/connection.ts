import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { ConnectionView } from '@shared/contract'
import { invoke, on } from '@/bridge'

export type ConnectionStatus = 'unknown' | 'online' | 'offline' | 'unreachable' | 'key_refused'

/**
 * Whether the service answers, as the backend learnt it from its last attempt, and whether this
 * computer is online at all (the browser knows). The sandbox runs on this computer: it is reachable
 * offline, so "offline" is said only of the real service.
 */
export const useConnectionStore = defineStore('connection', () => {
  const view = ref<ConnectionView | null>(null)
  const browserOnline = ref(typeof navigator === 'undefined' ? true : navigator.onLine)
  const now = ref(Date.now())
  let ticker: ReturnType<typeof setInterval> | null = null
  const cameOnline: Array<() => void> = []

  on('connection/changed', (next) => {
    view.value = next
  })
  if (typeof window !== 'undefined') {
    window.addEventListener('offline', () => (browserOnline.value = false))
    window.addEventListener('online', () => {
      browserOnline.value = true
      cameOnline.forEach((listener) => listener())
    })
  }

  const status = computed<ConnectionStatus>(() => {
    const mode = view.value?.mode
    if (!browserOnline.value && mode !== 'sandbox') return 'offline'
    return view.value?.state ?? 'unknown'
  })

  /** The service cannot be reached (no network, or it does not answer): a balance shown is the last one read. */
  const outOfReach = computed(() => status.value === 'offline' || status.value === 'unreachable')

  /** Whole seconds to the next attempt, counted down every second while one is due. */
  const retryInSeconds = computed<number | null>(() => {
    const retryAt = view.value?.retryAt
    if (!outOfReach.value) return null
    if (retryAt === null || retryAt === undefined) return null
    return Math.max(0, Math.ceil((retryAt - now.value) / 1000))
  })

  watch(
    () => view.value?.retryAt ?? null,
    (retryAt) => {
      now.value = Date.now()
      if (retryAt !== null && !ticker) ticker = setInterval(() => (now.value = Date.now()), 1000)
      if (retryAt === null && ticker) {
        clearInterval(ticker)
        ticker = null
      }
    },
  )

  /** "Can't reach the service — retrying in 8 s": what a waiting call is doing, in a few words. */
  const waitingLine = computed<string | null>(() => {
    const what =
      status.value === 'offline'
        ? "You're offline"
        : status.value === 'unreachable'
          ? "Can't reach the service"
          : null
    if (!what) return null
    const seconds = retryInSeconds.value
    return seconds === null
      ? `${what} — retrying soon`
      : seconds <= 0
        ? `${what} — retrying now`
        : `${what} — retrying in ${seconds} s`
  })

  async function load(): Promise<void> {
    const result = await invoke('connection/get')
    if (result.ok) view.value = result.data
  }

  /** Stops every call the user waits on that waits to try again; they end as "Cancelled". */
  async function cancelWaits(): Promise<number> {
    const result = await invoke('connection/cancelWaits')
    return result.ok ? result.data.cancelled : 0
  }

  /** Called when the computer is online again (to check the balance, fetch what arrived meanwhile). */
  function onCameOnline(listener: () => void): void {
    cameOnline.push(listener)
  }

  return {
    view,
    browserOnline,
    status,
    outOfReach,
    retryInSeconds,
    waitingLine,
    load,
    cancelWaits,
    onCameOnline,
  }
})
