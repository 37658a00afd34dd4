import type { Bridge } from '@shared/contract'
import { createWebSocketBridge } from './websocket'

declare global {
  interface Window {
    leadkeeper?: Bridge
  }
}

/** Electron's preload puts the bridge on `window`; in a browser the web host carries it instead. */
export const bridge: Bridge = window.leadkeeper ?? createWebSocketBridge(`ws://${window.location.host}/ws`)
export const { invoke, on } = bridge
