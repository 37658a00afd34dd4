import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { Bridge } from '../shared/contract'
import { isListedChannel, isListedEvent } from '../shared/channels'

/**
 * The renderer's only door to the backend: invoke a contract channel, listen to a contract event.
 * Names outside the contract are refused here, before they reach IPC.
 */
const bridge: Bridge = {
  invoke: (channel, ...args) => {
    if (!isListedChannel(channel)) return Promise.reject(new Error(`Unknown channel ${String(channel)}`))
    return ipcRenderer.invoke(channel, args[0])
  },
  on: (event, listener) => {
    if (!isListedEvent(event)) throw new Error(`Unknown event ${String(event)}`)
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload as never)
    ipcRenderer.on(event, wrapped)
    return () => {
      ipcRenderer.removeListener(event, wrapped)
    }
  },
}

contextBridge.exposeInMainWorld('leadkeeper', bridge)
