/**
 * A set of strings that holds a million of them as a few hundred texts: the people an import has
 * seen, one per row of a list. A `Set` of a million strings keeps a million objects alive, which the
 * garbage collector copies, promotes and marks again and again while the import goes on; here the
 * strings' characters are joined into large texts, `perText` strings to a text (the last strings
 * added are held as they are until they make one), and found by their hash in typed arrays.
 * Membership is exact: a matching hash is confirmed by the characters.
 */
export class StringSet {
  /** Entry number + 1 by hash slot; 0 is an empty slot. Open addressing, at most half full. */
  private slots = new Int32Array(1 << 12)
  /** Each entry's hash. */
  private hashes = new Int32Array(1 << 11)
  /** Where each entry ends in its text. */
  private ends = new Int32Array(1 << 11)
  /** The texts of the entries joined so far, `perText` entries each. */
  private readonly texts: string[] = []
  /** The entries since the last text was joined, as they came. */
  private pending: string[] = []
  private count = 0

  /** `hash`: any function of a string to 32 bits; strings of one hash are told apart by their characters. */
  constructor(private readonly hash: (value: string) => number = hashOf) {}

  get size(): number {
    return this.count
  }

  has(value: string): boolean {
    return this.slots[this.find(value, this.hash(value) | 0)]! !== 0
  }

  /** Adds `value`; whether it was new. */
  add(value: string): boolean {
    const hash = this.hash(value) | 0
    const slot = this.find(value, hash)
    if (this.slots[slot] !== 0) return false
    const entry = this.count++
    if (entry === this.hashes.length) this.growEntries()
    this.hashes[entry] = hash
    this.slots[slot] = entry + 1
    this.pending.push(value)
    if (this.pending.length === perText) this.join()
    if (this.count * 2 > this.slots.length) this.growSlots()
    return true
  }

  /** The slot holding `value`, or the empty slot where it would go. */
  private find(value: string, hash: number): number {
    const mask = this.slots.length - 1
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot]!
      if (held === 0 || (this.hashes[held - 1] === hash && this.holds(held - 1, value))) return slot
    }
  }

  /** Whether entry `entry` is `value`. */
  private holds(entry: number, value: string): boolean {
    const text = Math.floor(entry / perText)
    if (text === this.texts.length) return this.pending[entry - text * perText] === value
    const start = entry % perText === 0 ? 0 : this.ends[entry - 1]!
    return this.ends[entry]! - start === value.length && this.texts[text]!.startsWith(value, start)
  }

  private join(): void {
    const first = this.texts.length * perText
    let end = 0
    for (let at = 0; at < this.pending.length; at++) {
      end += this.pending[at]!.length
      this.ends[first + at] = end
    }
    this.texts.push(this.pending.join(''))
    this.pending = []
  }

  private growEntries(): void {
    const hashes = new Int32Array(this.hashes.length * 2)
    hashes.set(this.hashes)
    this.hashes = hashes
    const ends = new Int32Array(this.ends.length * 2)
    ends.set(this.ends)
    this.ends = ends
  }

  private growSlots(): void {
    const slots = new Int32Array(this.slots.length * 2)
    const mask = slots.length - 1
    for (let entry = 0; entry < this.count; entry++) {
      let slot = this.hashes[entry]! & mask
      while (slots[slot] !== 0) slot = (slot + 1) & mask
      slots[slot] = entry + 1
    }
    this.slots = slots
  }
}

/** Strings joined into one text. */
const perText = 4096

/** FNV-1a of the string's char codes, mixed at the end so that the low bits spread. */
function hashOf(value: string): number {
  let hash = 0x811c9dc5
  for (let at = 0; at < value.length; at++) hash = Math.imul(hash ^ value.charCodeAt(at), 0x01000193)
  hash ^= hash >>> 16
  hash = Math.imul(hash, 0x85ebca6b)
  return hash ^ (hash >>> 13)
}
