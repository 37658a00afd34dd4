/**
 * The app's Content-Security-Policy, for the Electron window and the web host alike: only our own
 * scripts run. Naive UI injects its styles at run time, hence 'unsafe-inline' for styles only.
 * Only the WebSocket the page may open differs between the hosts.
 */
export function contentSecurityPolicy(connectSources: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src 'self' ${connectSources}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}
