import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { Bridge } from '../shared/contract'
import { isListedChannel, isListedEvent } from '../shared/channels'
import { originMoveChannels, type OriginMoveHost } from '../shared/origin-move'

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

/**
 * The shell's own door, apart from the contract: moving the data the app kept under file:// to its
 * origin now (`electron/shared/origin-move.ts`). Main answers only our window's main frame.
 */
const originMove: OriginMoveHost = {
  start: () => ipcRenderer.invoke(originMoveChannels.start),
  read: (request) => ipcRenderer.invoke(originMoveChannels.read, request),
  finish: (counts) => ipcRenderer.invoke(originMoveChannels.finish, counts),
  fail: (message) => ipcRenderer.invoke(originMoveChannels.fail, message),
}

contextBridge.exposeInMainWorld('leadkeeperShell', { originMove })
