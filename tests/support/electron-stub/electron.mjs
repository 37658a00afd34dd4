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
}

const userData = process.env.LEADKEEPER_TEST_USER_DATA ?? mkdtempSync(join(tmpdir(), 'leadkeeper-user-data-'))

class WebContents extends EventEmitter {
  constructor() {
    super()
    this.mainFrame = { url: 'file:///app/out/renderer/index.html' }
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
    report(this)
  }
  async loadURL(url) {
    this.loaded = url
    report(this)
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

/** The smoke test runs the built bundle as a child process and reads this report from stdout. */
function report(window) {
  if (!process.env.LEADKEEPER_SMOKE_REPORT) return
  process.stdout.write(
    JSON.stringify({
      channels: [...recorded.handlers.keys()],
      webPreferences: window.options.webPreferences,
      loaded: window.loaded,
      menu: recorded.menu !== null,
      permissionHandlers: recorded.permissionRequest !== null && recorded.permissionCheck !== null,
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
  on() {},
  removeHandler(channel) {
    recorded.handlers.delete(channel)
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
  Menu,
  session,
  safeStorage,
  screen,
  shell,
  contextBridge,
  ipcRenderer,
}
