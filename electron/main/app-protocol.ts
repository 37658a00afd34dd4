import type { Protocol } from 'electron'
import { readFile, stat } from 'node:fs/promises'
import { resolve, sep } from 'node:path'
import { contentTypeOf } from '../shared/content-types'

/**
 * The built renderer is served from `app://bundle/…`, a standard, secure scheme of our own, instead
 * of file://: a page there is one origin with nothing else on disk, its module workers and fetches
 * are same-origin, and file:// needs no extra privileges (the fuse is off in electron-builder.yml).
 */
export const appScheme = 'app'
export const bundleHost = 'bundle'
export const appEntryUrl = `${appScheme}://${bundleHost}/index.html`

/** Must run before the app is ready: Chromium fixes its schemes' privileges at start. */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: appScheme,
      // Standard: relative URLs, storage and workers as on https; secure: a secure context; the
      // renderer fetches its own assets and starts module workers; stream and code cache for speed.
      // No corsEnabled: no other origin may read these files.
      privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, codeCache: true },
    },
  ])
}

/** `app://bundle` exactly: no other host, no port, no credentials. (Node's URL gives such an origin as 'null'.) */
export function isBundleOrigin(url: URL): boolean {
  return (
    url.protocol === `${appScheme}:` && url.host === bundleHost && url.username === '' && url.password === ''
  )
}

export type BundlePath = { ok: true; path: string } | { ok: false; status: 403 | 404 }

/**
 * The file under `root` an `app:` URL names, or the status that refuses it. Pure: no disk access.
 * Each path segment is decoded on its own, so an encoded `..`, slash, backslash, NUL or drive
 * letter can never become a path of its own; any such segment is refused, not normalised away.
 */
export function resolveBundlePath(value: string, root: string): BundlePath {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return { ok: false, status: 404 }
  }
  if (!isBundleOrigin(url)) return { ok: false, status: 404 }
  const raw = url.pathname === '/' || url.pathname === '' ? '/index.html' : url.pathname
  const segments: string[] = []
  for (const encoded of raw.slice(1).split('/')) {
    let segment: string
    try {
      segment = decodeURIComponent(encoded)
    } catch {
      return { ok: false, status: 403 }
    }
    if (segment === '' || segment === '.' || segment === '..' || /[/\\:\0]/.test(segment)) {
      return { ok: false, status: 403 }
    }
    segments.push(segment)
  }
  const base = resolve(root)
  const path = resolve(base, ...segments)
  if (!path.startsWith(base + sep)) return { ok: false, status: 403 }
  return { ok: true, path }
}

/**
 * The handler of the `app:` scheme: files under `root` only, with the same security headers the
 * session adds to other responses (a custom protocol's responses may not pass through webRequest).
 */
export function bundleHandler(
  root: string,
  securityHeaders: Record<string, string>,
): (request: { url: string; method: string }) => Promise<Response> {
  const refuse = (status: number, text: string) =>
    new Response(text, {
      status,
      headers: { ...securityHeaders, 'Content-Type': 'text/plain; charset=utf-8' },
    })
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'Method not allowed')
    const found = resolveBundlePath(request.url, root)
    if (!found.ok) return refuse(found.status, found.status === 403 ? 'Forbidden' : 'Not found')
    try {
      if (!(await stat(found.path)).isFile()) return refuse(404, 'Not found')
      const body = request.method === 'HEAD' ? null : new Uint8Array(await readFile(found.path))
      return new Response(body, {
        status: 200,
        headers: { ...securityHeaders, 'Content-Type': contentTypeOf(found.path) },
      })
    } catch {
      return refuse(404, 'Not found')
    }
  }
}

export function serveBundle(
  protocol: Pick<Protocol, 'handle'>,
  root: string,
  securityHeaders: Record<string, string>,
): void {
  protocol.handle(appScheme, bundleHandler(root, securityHeaders))
}
