/**
 * The app's Content-Security-Policy, for the Electron window and the web host alike: only our own
 * scripts run. Naive UI injects its styles at run time, hence 'unsafe-inline' for styles only.
 * The hosts differ in the WebSockets the page may open and in whether images of other sites load.
 */
export interface PolicyOptions {
  /** WebSocket sources beside 'self': the web host's own transport, the dev server's reload. */
  connect: string[]
  /** Company logos from any https site; every image fetched tells its site what the user looked at. */
  remoteImages: boolean
}

export function contentSecurityPolicy(options: PolicyOptions): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${options.remoteImages ? ' https:' : ''}`,
    "font-src 'self' data:",
    ["connect-src 'self'", ...options.connect].join(' '),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}
