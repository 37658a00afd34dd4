import type { Bridge, EventName } from '@shared/contract'
import type { Result } from '@shared/result'

interface Pending {
  resolve: (result: Result<unknown>) => void
}

/**
 * The contract over the web host's WebSocket. The token travels as the HttpOnly cookie the host set
 * when the page was opened, so this code never sees it. A dropped connection is re-opened with
 * back-off; calls in flight when it dropped are answered with a network failure, never left hanging.
 */
export function createWebSocketBridge(url: string): Bridge {
  let socket: WebSocket | null = null
  let opened: Promise<WebSocket> | null = null
  let nextId = 1
  let retryDelay = 250
  const pending = new Map<number, Pending>()
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>()

  /** The socket being opened or open; an older one closing late is ignored. */
  let live: WebSocket | null = null

  /** Every call in flight is answered with a network failure, and the socket is given up. */
  const drop = (message: string) => {
    live = null
    socket = null
    opened = null
    for (const [id, call] of pending) {
      pending.delete(id)
      call.resolve({ ok: false, error: { code: 'network', message } })
    }
  }

  const connect = (): Promise<WebSocket> => {
    opened ??= new Promise<WebSocket>((resolve, reject) => {
      const candidate = new WebSocket(url)
      live = candidate
      candidate.onopen = () => {
        if (candidate !== live) return candidate.close()
        socket = candidate
        retryDelay = 250
        resolve(candidate)
      }
      candidate.onmessage = (message) => {
        if (candidate === live) onMessage(String(message.data))
      }
      candidate.onclose = () => {
        reject(new Error('closed'))
        if (candidate !== live) return
        drop('The connection to Leadkeeper was lost.')
        if (listeners.size > 0) setTimeout(() => void connect().catch(() => undefined), retryDelay)
        retryDelay = Math.min(retryDelay * 2, 5_000)
      }
    })
    return opened
  }

  // A browser told it is offline may stop carrying frames without closing the socket, leaving calls
  // unanswered: they end at once as network failures, and the socket is opened again when it is online.
  if (typeof window !== 'undefined') {
    window.addEventListener('offline', () => {
      const current = socket
      drop('The connection to Leadkeeper was lost: this computer is offline.')
      current?.close()
    })
    window.addEventListener('online', () => {
      retryDelay = 250
      if (!socket && listeners.size > 0) void connect().catch(() => undefined)
    })
  }

  const onMessage = (text: string) => {
    const message = JSON.parse(text) as {
      id?: number | null
      result?: Result<unknown>
      event?: EventName
      payload?: unknown
    }
    if (message.event) {
      listeners.get(message.event)?.forEach((listener) => listener(message.payload))
      return
    }
    if (typeof message.id === 'number' && message.result) {
      pending.get(message.id)?.resolve(message.result)
      pending.delete(message.id)
    }
  }

  return {
    invoke: async (channel, ...args) => {
      let ws: WebSocket
      try {
        ws = socket ?? (await connect())
      } catch {
        return {
          ok: false,
          error: { code: 'network', message: 'Leadkeeper is not reachable. Is `npm run web` still running?' },
        }
      }
      const id = nextId++
      const answer = new Promise<Result<unknown>>((resolve) => pending.set(id, { resolve }))
      ws.send(JSON.stringify({ id, channel, input: args[0] }))
      return answer as never
    },
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set()
      set.add(listener as (payload: unknown) => void)
      listeners.set(event, set)
      if (!socket) void connect().catch(() => undefined)
      return () => {
        set.delete(listener as (payload: unknown) => void)
      }
    },
  }
}
