/**
 * Bounds on how deeply arrays and objects nest in what a peer sends. Parsing JSON does not recurse,
 * but validating, copying and serializing a value do: a value nested a hundred thousand levels deep
 * overflows the stack wherever it is next walked (a schema's check, a record written to disk, a
 * timer's serialization), far from where it came in. The sandbox, which stands on nothing of the
 * client, keeps its own count of a body's depth (`electron/sandbox/http.ts`).
 */

/** Deeper than any input of the contract or body of the service's interface (a search's filters are four levels down). */
export const maxJsonDepth = 32

/** Whether arrays and objects nest deeper than `limit` in a JSON text, counted without parsing it. */
export function jsonDepthExceeds(text: string, limit: number = maxJsonDepth): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (inString) {
      if (char === 0x5c) index++
      else if (char === 0x22) inString = false
    } else if (char === 0x22) inString = true
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true
    } else if (char === 0x5d || char === 0x7d) depth--
  }
  return false
}

/**
 * Whether arrays and objects nest deeper than `limit` in a value (as IPC delivers it), walked
 * without recursion so that the check cannot overflow itself. A value met twice is walked once.
 */
export function valueDepthExceeds(value: unknown, limit: number = maxJsonDepth): boolean {
  const seen = new Set<object>()
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (current === null || typeof current !== 'object' || seen.has(current)) continue
    if (ArrayBuffer.isView(current) || current instanceof ArrayBuffer) continue
    if (depth + 1 > limit) return true
    seen.add(current)
    for (const child of Object.values(current)) stack.push([child, depth + 1])
  }
  return false
}
