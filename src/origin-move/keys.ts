/**
 * What crosses from the source to the sink is data from another process: a record's key is checked
 * to be an IndexedDB key before it is used as one.
 */
export function isStoreKey(value: unknown): value is IDBValidKey {
  if (typeof value === 'number') return !Number.isNaN(value)
  if (typeof value === 'string') return true
  if (value instanceof Date) return !Number.isNaN(value.getTime())
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return true
  return Array.isArray(value) && value.every(isStoreKey)
}

/** A rough size of a structured value in bytes, to cut pages of records near a size, not a count. */
export function roughSize(value: unknown, depth = 0): number {
  if (typeof value === 'string') return 16 + value.length * 2
  if (value === null || typeof value !== 'object') return 8
  if (ArrayBuffer.isView(value)) return 16 + value.byteLength
  if (value instanceof ArrayBuffer) return 16 + value.byteLength
  if (depth > 8) return 64
  let size = 16
  if (Array.isArray(value)) {
    for (const item of value) size += roughSize(item, depth + 1)
    return size
  }
  for (const [key, item] of Object.entries(value)) size += key.length * 2 + roughSize(item, depth + 1)
  return size
}
