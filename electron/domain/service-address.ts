/**
 * Where the key may be sent, and what may be a key: one rule for the app's settings, the web host and
 * the command line.
 */

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host)
}

/** An https address, or plain http to this machine only: the key must never cross a network in clear. */
export function isServiceAddress(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))
  } catch {
    return false
  }
}

export const serviceAddressRule = 'Use an https:// address (plain http:// only for 127.0.0.1 or localhost).'

/** Scheme, host and port of an address; null for none or one that does not parse. */
export function originOf(value: string): string | null {
  if (value.trim() === '') return null
  try {
    return new URL(value.trim()).origin
  } catch {
    return null
  }
}

/**
 * A key is printable ASCII without spaces. A control character would end the key's header early or
 * add a header of its own, and fetch refuses it only once the request is being made.
 */
export function isApiKeyText(key: string): boolean {
  return /^[\x21-\x7e]+$/.test(key)
}
