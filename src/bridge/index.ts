import type { Bridge } from '@shared/contract'
import { createWebSocketBridge } from './websocket'

declare global {
  interface Window {
    leadkeeper?: Bridge
  }
}

/** The host's bridge: Electron's preload puts it on `window`; in a browser the web host carries it. */
function hostBridge(): Bridge {
  return window.leadkeeper ?? createWebSocketBridge(`ws://${window.location.host}/ws`)
}

let current: Bridge | null = null

/**
 * Gives the stores the bridge they talk through, before any of them is used: the app keeps the
 * host's; a test gives one over the real backend in its own process (`tests/support/bridge.ts`).
 * Nothing picks a transport when this module loads, so a store can be made with either.
 */
export function provideBridge(bridge: Bridge): void {
  current = bridge
}

function active(): Bridge {
  current ??= hostBridge()
  return current
}

export const invoke: Bridge['invoke'] = (channel, ...args) => active().invoke(channel, ...args)
export const on: Bridge['on'] = (event, listener) => active().on(event, listener)
