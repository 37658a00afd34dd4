import {
  app,
  BrowserWindow,
  Menu,
  Notification,
  dialog,
  ipcMain,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
} from 'electron'
import Store from 'electron-store'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createBackend } from '../backend'
import { defaultSettings, type PersistedSettings } from '../backend/host'
import type { Emit } from '../shared/contract'
import { startSandbox } from '../sandbox'
import { appEntryUrl, registerAppScheme, serveBundle } from './app-protocol'
import { pickCsv } from './files'
import { showJobInShell } from './job-shell'
import { createElectronKeyVault } from './key-vault'
import { registerIpc, trustedSenderCheck } from './ipc'
import { menuTemplate } from './menu'
import {
  applySessionPolicy,
  hardenWebContents,
  isAppUrl,
  secureWebPreferences,
  securityHeaders,
} from './security'
import { defaultWindowState, restorableBounds, type WindowState } from './window-state'

interface StoreShape {
  settings: PersistedSettings
  windowState: WindowState
  encryptedApiKey?: string
}

const devServerUrl = process.env['ELECTRON_RENDERER_URL']
const rendererDir = new URL('../renderer/', import.meta.url)
const preloadPath = (name: string) => fileURLToPath(new URL(`../preload/${name}.cjs`, import.meta.url))
/** The in-app sandbox runs five times faster than the real service, so a demo feels lively. */
const sandboxTimeScale = Number(process.env['LEADKEEPER_SANDBOX_TIME_SCALE'] ?? 0.2)
let mainWindow: BrowserWindow | null = null

function createWindow(store: Store<StoreShape>): BrowserWindow {
  const state = store.get('windowState')
  const window = new BrowserWindow({
    ...restorableBounds(
      state,
      screen.getAllDisplays().map((display) => display.workArea),
    ),
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Leadkeeper',
    autoHideMenuBar: false,
    webPreferences: secureWebPreferences(preloadPath('index')),
  })
  if (state.maximized) window.maximize()
  hardenWebContents(window.webContents, {
    devServerUrl,
    openExternal: (url) => shell.openExternal(url),
  })
  window.once('ready-to-show', () => window.show())
  window.on('close', () => {
    store.set('windowState', { bounds: window.getNormalBounds(), maximized: window.isMaximized() })
  })
  if (devServerUrl) void window.loadURL(devServerUrl)
  else void window.loadURL(appEntryUrl)
  return window
}

async function start(): Promise<void> {
  const store = new Store<StoreShape>({
    name: 'leadkeeper',
    defaults: { settings: defaultSettings, windowState: defaultWindowState },
  })
  applySessionPolicy(session.defaultSession, devServerUrl)
  serveBundle(protocol, fileURLToPath(rendererDir), securityHeaders)
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(process.platform, Boolean(devServerUrl))))

  const emit: Emit = (event, payload) => {
    if (!mainWindow || mainWindow.isDestroyed()) return
    mainWindow.webContents.send(event, payload)
    showJobInShell(mainWindow, event, payload, (body) => {
      if (Notification.isSupported()) new Notification({ title: 'Leadkeeper', body }).show()
    })
  }
  const stateDir = join(app.getPath('userData'), 'state')
  const backend = createBackend(
    {
      kind: 'electron',
      version: app.getVersion(),
      platform: process.platform,
      // Settings saved by an older version lack newer fields: the defaults fill them in.
      settings: {
        load: () => ({ ...defaultSettings, ...store.get('settings') }),
        save: (next) => store.set('settings', next),
      },
      keys: createElectronKeyVault(store, safeStorage),
      emit,
      stateDir,
      pickCsv: () => pickCsv(dialog, mainWindow),
    },
    {
      // The sandbox keeps its state beside the ledger, so demo jobs survive a restart as real ones do.
      startSandbox: () =>
        startSandbox({ port: 0, timeScale: sandboxTimeScale, stateDir: join(stateDir, 'sandbox') }, {}),
      sandboxTimeScale,
    },
  )
  registerIpc(
    ipcMain,
    backend.handlers,
    trustedSenderCheck(
      () => mainWindow,
      (url) => isAppUrl(url, devServerUrl),
    ),
  )
  app.on('before-quit', () => void backend.close())
  void backend.start().catch((error: unknown) => console.error('[backend] could not resume jobs', error))

  const open = () => {
    const window = createWindow(store)
    window.on('closed', () => {
      if (mainWindow === window) mainWindow = null
    })
    return window
  }
  mainWindow = open()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = open()
  })
}

registerAppScheme(protocol)

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    if (!mainWindow || mainWindow.isDestroyed()) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  void app.whenReady().then(start)
}
