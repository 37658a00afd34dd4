import type { Session, WebContents, WebPreferences } from 'electron'
import { contentSecurityPolicy } from '../shared/csp'
import { isBundleOrigin } from './app-protocol'
import { safeOpenExternal } from './safe-open-external'

/**
 * The packaged app talks to main over IPC alone and shows no image from the web: no WebSocket, no
 * remote image (an image's address would tell its site what the user looked at, and could carry data out).
 */
export const windowContentSecurityPolicy = contentSecurityPolicy({ connect: [], remoteImages: false })

/** The dev server reloads the page over a WebSocket; only development needs it. */
export const developmentContentSecurityPolicy = contentSecurityPolicy({
  connect: ['ws://127.0.0.1:*', 'ws://localhost:*'],
  remoteImages: true,
})

/** The headers every response of our pages carries, whichever way it is served. */
export const securityHeaders: Record<string, string> = {
  'Content-Security-Policy': windowContentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
}

const developmentHeaders: Record<string, string> = {
  ...securityHeaders,
  'Content-Security-Policy': developmentContentSecurityPolicy,
}

export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  }
}

/** Our own pages only: the packaged renderer (app://bundle), or the dev server while developing. */
export function isAppUrl(value: string, devServerUrl: string | undefined): boolean {
  try {
    const url = new URL(value)
    if (devServerUrl) return url.origin === new URL(devServerUrl).origin
    return isBundleOrigin(url)
  } catch {
    return false
  }
}

export function hardenWebContents(
  contents: WebContents,
  options: { devServerUrl: string | undefined; openExternal: (url: string) => Promise<void> },
): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, options.devServerUrl)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, options.devServerUrl)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    // Links to the web open in the user's browser, never in a window of ours.
    void safeOpenExternal(url, options.openExternal)
    return { action: 'deny' }
  })
}

export function applySessionPolicy(session: Session, devServerUrl?: string): void {
  const headers = devServerUrl ? developmentHeaders : securityHeaders
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
      },
    })
  })
}
