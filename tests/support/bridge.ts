import type { Bridge, ChannelName, EventName, EventPayload } from '../../electron/shared/contract'
import type { Result } from '../../electron/shared/result'
import { dispatch } from '../../electron/backend/dispatch'
import type { TestBackend } from './backend'

/** What a test may do to the calls between a window and the backend: pass, answer for it, or drop. */
export type Interceptor = (
  channel: ChannelName,
  input: unknown,
) => Result<unknown> | Promise<Result<unknown>> | undefined

export interface TestBridge extends Bridge {
  /** The window is gone: no call is answered and no event heard from now on, as after a crash. */
  close(): void
}

/**
 * The contract as a window sees it, over the real backend in this process: every input checked by
 * the same dispatch as Electron's IPC and the web host, and every value through JSON, as over the
 * WebSocket. `intercept` answers a call instead of the backend (a fault, a crash at that call).
 */
export function inProcessBridge(bed: TestBackend, intercept?: Interceptor): TestBridge {
  let closed = false
  const stops = new Set<() => void>()
  const invoke = (async (channel: ChannelName, input?: unknown) => {
    if (closed) return new Promise(() => undefined)
    const instead = intercept?.(channel, input)
    if (instead) return instead
    const result = await dispatch(
      bed.backend.handlers,
      channel,
      JSON.parse(JSON.stringify(input ?? null)) ?? undefined,
    )
    return JSON.parse(JSON.stringify(result)) as Result<unknown>
  }) as Bridge['invoke']
  const on = (<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) => {
    const stop = bed.listen((name, payload) => {
      if (!closed && name === event) listener(JSON.parse(JSON.stringify(payload)) as EventPayload<E>)
    })
    stops.add(stop)
    return () => {
      stops.delete(stop)
      stop()
    }
  }) as Bridge['on']
  return {
    invoke,
    on,
    close: () => {
      closed = true
      for (const stop of stops) stop()
    },
  }
}
