/**
 * The one gate for handing a URL to the operating system. Only https reaches the OS browser:
 * file:, javascript:, custom protocol handlers and plain http could run code or leak data.
 */
export function isSafeExternalUrl(value: string): boolean {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  return url.protocol === 'https:' && url.username === '' && url.password === '' && url.hostname !== ''
}

export async function safeOpenExternal(
  value: string,
  openExternal: (url: string) => Promise<void>,
): Promise<boolean> {
  if (!isSafeExternalUrl(value)) return false
  await openExternal(new URL(value).toString())
  return true
}
