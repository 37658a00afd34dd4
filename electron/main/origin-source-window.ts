import { BrowserWindow } from 'electron'
import { originSourcePage } from '../shared/origin-move'
import type { SourceWindow } from './origin-move'
import { secureWebPreferences } from './security'

/**
 * The hidden window that reads the old origin: an empty page under file:// (the origin the app's
 * data was kept in before it moved to app://bundle) whose sandboxed preload answers main. It never
 * navigates, opens nothing and shows nothing.
 */
export async function openSourceWindow(
  rendererDir: URL,
  preloadPath: string,
  /** The app's window: a child window closes with it. */
  parent: BrowserWindow | undefined,
): Promise<SourceWindow> {
  const window = new BrowserWindow({
    show: false,
    ...(parent ? { parent } : {}),
    webPreferences: secureWebPreferences(preloadPath),
  })
  window.webContents.on('will-navigate', (event) => event.preventDefault())
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
  await window.loadURL(new URL(originSourcePage, rendererDir).href)
  return {
    webContents: window.webContents,
    close: () => {
      if (!window.isDestroyed()) window.destroy()
    },
    onGone: (listener) => {
      window.webContents.once('render-process-gone', listener)
      window.once('closed', listener)
    },
  }
}
