import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron'
import { channelNames, type Handlers } from '../shared/contract'
import { fail } from '../shared/result'
import { dispatch } from '../backend/dispatch'

/**
 * Registers every channel of the contract. Only our own window's main frame may call: an iframe,
 * another window or a page navigated elsewhere gets a refusal and the handler never runs.
 */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle'>,
  handlers: Handlers,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
): void {
  for (const channel of channelNames) {
    ipcMain.handle(channel, async (event, input: unknown) => {
      if (!isTrustedSender(event)) return fail('internal', 'This caller is not allowed.')
      return dispatch(handlers, channel, input)
    })
  }
}

export function trustedSenderCheck(
  getWindow: () => BrowserWindow | null,
  isAppUrl: (url: string) => boolean,
): (event: IpcMainInvokeEvent) => boolean {
  return (event) => {
    const window = getWindow()
    if (!window || window.isDestroyed()) return false
    const frame = event.senderFrame
    return (
      event.sender === window.webContents &&
      frame !== null &&
      frame === window.webContents.mainFrame &&
      isAppUrl(frame.url)
    )
  }
}
