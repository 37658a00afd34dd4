/**
 * A multimap from 30-bit key hashes to slots in two typed arrays (open addressing, linear probing):
 * half what the same keys weigh in a `Map`. It grows by doubling, and moves the entries of the table
 * it outgrew a few at every `add` afterwards, so that no single call rehashes millions of entries
 * (a long task of the library worker at a million people).
 */

const empty = 0
/** A removed entry: probes go past it; hashes are 30-bit, so it is never one. */
const removed = 0xffffffff

/**
 * Places of the outgrown table moved on each `add`. It has half the places of the new one, and the
 * next growth comes no sooner than a quarter of the new places later, so two would do; eight leave
 * room for `reserve`.
 */
const movedPerAdd = 8

interface Table {
  hashes: Uint32Array
  slots: Int32Array
}

const table = (capacity: number): Table => ({
  hashes: new Uint32Array(capacity),
  slots: new Int32Array(capacity),
})

export class SlotTable {
  private current = table(1024)
  /** Places taken in `current`, removed entries included (they still end probes only at empty). */
  private used = 0
  /** Entries in `current`. */
  private live = 0
  /**
   * The table outgrown, while its entries move: places before `movedTo` are in `current` now (kept
   * as they were, so that probes through them still reach the places after).
   */
  private outgrown: (Table & { movedTo: number; left: number }) | null = null

  /** Entries of an outgrown table not moved yet. */
  get moving(): number {
    return this.outgrown?.left ?? 0
  }

  /** Makes room for this many entries without growing again. */
  reserve(entries: number): void {
    let capacity = this.current.hashes.length
    while (capacity < entries * 2) capacity *= 2
    if (capacity > this.current.hashes.length) this.grow(capacity)
  }

  add(hash: number, slot: number): void {
    if ((this.used + (this.outgrown?.left ?? 0) + 1) * 2 > this.current.hashes.length)
      this.grow(this.current.hashes.length * 2)
    this.place(hash, slot)
    this.move(movedPerAdd)
  }

  remove(hash: number, slot: number): void {
    const { hashes, slots } = this.current
    const mask = hashes.length - 1
    for (let at = hash & mask; hashes[at] !== empty; at = (at + 1) & mask) {
      if (hashes[at] === hash && slots[at] === slot) {
        hashes[at] = removed
        this.live -= 1
      }
    }
    const old = this.outgrown
    if (!old) return
    const oldMask = old.hashes.length - 1
    for (let at = hash & oldMask; old.hashes[at] !== empty; at = (at + 1) & oldMask) {
      if (at >= old.movedTo && old.hashes[at] === hash && old.slots[at] === slot) {
        old.hashes[at] = removed
        old.left -= 1
      }
    }
  }

  /** Every slot stored under this hash. */
  find(hash: number): number[] {
    const found: number[] = []
    const { hashes, slots } = this.current
    const mask = hashes.length - 1
    for (let at = hash & mask; hashes[at] !== empty; at = (at + 1) & mask) {
      if (hashes[at] === hash) found.push(slots[at]!)
    }
    const old = this.outgrown
    if (!old) return found
    const oldMask = old.hashes.length - 1
    for (let at = hash & oldMask; old.hashes[at] !== empty; at = (at + 1) & oldMask) {
      if (at >= old.movedTo && old.hashes[at] === hash) found.push(old.slots[at]!)
    }
    return found
  }

  /** A new, larger table; what is left of an earlier growth moves first. */
  private grow(capacity: number): void {
    this.move(Infinity)
    const old = this.current
    this.outgrown = this.live > 0 ? { ...old, movedTo: 0, left: this.live } : null
    this.current = table(capacity)
    this.used = 0
    this.live = 0
  }

  /** Moves the next `places` places of the outgrown table into the current one. */
  private move(places: number): void {
    const old = this.outgrown
    if (!old) return
    const end = Math.min(old.hashes.length, old.movedTo + places)
    for (let at = old.movedTo; at < end; at++) {
      const hash = old.hashes[at]!
      if (hash !== empty && hash !== removed) {
        this.place(hash, old.slots[at]!)
        old.left -= 1
      }
    }
    old.movedTo = end
    if (end === old.hashes.length) this.outgrown = null
  }

  private place(hash: number, slot: number): void {
    const { hashes, slots } = this.current
    const mask = hashes.length - 1
    let at = hash & mask
    while (hashes[at] !== empty && hashes[at] !== removed) at = (at + 1) & mask
    if (hashes[at] === empty) this.used += 1
    this.live += 1
    hashes[at] = hash
    slots[at] = slot
  }
}
