// A stand-in for the `electron` module, for tests that run main-process code in plain Node.
// It records what the code asked of Electron so tests can assert on it.
import { EventEmitter } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const recorded = {
  windows: [],
  handlers: new Map(),
  sent: [],
  opened: [],
  exposed: {},
  menu: null,
  permissionRequest: null,
  permissionCheck: null,
  headersReceived: null,
  progress: [],
  notifications: [],
  schemes: [],
  protocolHandlers: new Map(),
  listeners: new Map(),
}

const userData = process.env.LEADKEEPER_TEST_USER_DATA ?? mkdtempSync(join(tmpdir(), 'leadkeeper-user-data-'))

class WebContents extends EventEmitter {
  constructor() {
    super()
    this.mainFrame = { url: 'app://bundle/index.html' }
    this.windowOpenHandler = null
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler
  }
  send(channel, payload) {
    recorded.sent.push({ channel, payload })
  }
}

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super()
    this.options = options
    this.webContents = new WebContents()
    recorded.windows.push(this)
  }
  static getAllWindows() {
    return recorded.windows
  }
  async loadFile(path) {
    this.loaded = path
    await report(this)
  }
  async loadURL(url) {
    this.loaded = url
    await report(this)
  }
  setProgressBar(progress) {
    recorded.progress.push(progress)
  }
  maximize() {}
  show() {}
  focus() {}
  restore() {}
  isDestroyed() {
    return false
  }
  isMinimized() {
    return false
  }
  isMaximized() {
    return false
  }
  getNormalBounds() {
    return { x: 10, y: 10, width: 1280, height: 820 }
  }
}

/**
 * The smoke test runs the built bundle as a child process and reads this report from stdout. The
 * URLs in LEADKEEPER_SMOKE_REQUESTS (JSON) are asked of the handler the bundle gave `protocol.handle`.
 */
async function report(window) {
  if (!process.env.LEADKEEPER_SMOKE_REPORT) return
  const urls = JSON.parse(process.env.LEADKEEPER_SMOKE_REQUESTS ?? '[]')
  const responses = []
  for (const url of urls) {
    const handler = recorded.protocolHandlers.get(new URL(url).protocol.slice(0, -1))
    if (!handler) {
      responses.push({ url, status: null })
      continue
    }
    const response = await handler(new Request(url))
    const body = Buffer.from(await response.arrayBuffer())
    responses.push({
      url,
      status: response.status,
      headers: Object.fromEntries(response.headers),
      start: body.subarray(0, 64).toString('utf8'),
      length: body.length,
    })
  }
  process.stdout.write(
    JSON.stringify({
      channels: [...recorded.handlers.keys()],
      webPreferences: window.options.webPreferences,
      loaded: window.loaded,
      menu: recorded.menu !== null,
      permissionHandlers: recorded.permissionRequest !== null && recorded.permissionCheck !== null,
      schemes: recorded.schemes,
      responses,
    }) + '\n',
  )
  process.exit(0)
}

export const app = Object.assign(new EventEmitter(), {
  requestSingleInstanceLock: () => true,
  whenReady: () => Promise.resolve(),
  getVersion: () => '0.0.0-test',
  getPath: () => userData,
  quit: () => undefined,
})

export const ipcMain = {
  handle(channel, handler) {
    recorded.handlers.set(channel, handler)
  },
  on(channel, listener) {
    recorded.listeners.set(channel, listener)
  },
  removeHandler(channel) {
    recorded.handlers.delete(channel)
  },
}

export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    recorded.schemes.push(...schemes)
  },
  handle(scheme, handler) {
    recorded.protocolHandlers.set(scheme, handler)
  },
}

export const Menu = {
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu(menu) {
    recorded.menu = menu
  },
}

export const session = {
  defaultSession: {
    setPermissionRequestHandler(handler) {
      recorded.permissionRequest = handler
    },
    setPermissionCheckHandler(handler) {
      recorded.permissionCheck = handler
    },
    webRequest: {
      onHeadersReceived(handler) {
        recorded.headersReceived = handler
      },
    },
  },
}

export const safeStorage = {
  isEncryptionAvailable: () => true,
  encryptString: (plain) => Buffer.from(`sealed:${plain}`),
  decryptString: (sealed) => sealed.toString().slice('sealed:'.length),
  getSelectedStorageBackend: () => 'gnome_libsecret',
}

export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] }

export const shell = {
  openExternal: async (url) => {
    recorded.opened.push(url)
  },
  openPath: async () => '',
}

export class Notification {
  constructor(options) {
    this.options = options
  }
  static isSupported() {
    return true
  }
  show() {
    recorded.notifications.push(this.options)
  }
}

export const dialog = {
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
}

export const contextBridge = {
  exposeInMainWorld(name, api) {
    recorded.exposed[name] = api
  },
}

export const ipcRenderer = new EventEmitter()

export default {
  app,
  BrowserWindow,
  ipcMain,
  protocol,
  Menu,
  session,
  safeStorage,
  screen,
  shell,
  contextBridge,
  ipcRenderer,
}
