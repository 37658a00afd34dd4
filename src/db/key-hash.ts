/** FNV-1a over the UTF-16 units, to 30 bits so the hash is a small integer; never 0. */
export function keyHash(key: string): number {
  let hash = 0x811c9dc5
  for (let at = 0; at < key.length; at++) {
    hash ^= key.charCodeAt(at)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 2 || 1
}
