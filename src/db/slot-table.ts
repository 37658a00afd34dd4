/**
 * A multimap from 30-bit key hashes to slots in two typed arrays (open addressing, linear probing):
 * four keys a person at a million people weigh 64 MB here, against twice that in a `Map`, and
 * `reserve` sizes it once, where a `Map` rehashes millions of entries in one long task as it grows.
 */

const empty = 0
/** A removed entry: probes go past it; hashes are 30-bit, so it is never one. */
const removed = 0xffffffff

export class SlotTable {
  private hashes = new Uint32Array(1024)
  private slots = new Int32Array(1024)
  private used = 0

  /** Makes room for this many entries without growing again. */
  reserve(entries: number): void {
    let capacity = this.hashes.length
    while (capacity < entries * 2) capacity *= 2
    if (capacity > this.hashes.length) this.rehash(capacity)
  }

  add(hash: number, slot: number): void {
    if ((this.used + 1) * 2 > this.hashes.length) this.rehash(this.hashes.length * 2)
    const mask = this.hashes.length - 1
    let at = hash & mask
    while (this.hashes[at] !== empty && this.hashes[at] !== removed) at = (at + 1) & mask
    if (this.hashes[at] === empty) this.used += 1
    this.hashes[at] = hash
    this.slots[at] = slot
  }

  remove(hash: number, slot: number): void {
    const mask = this.hashes.length - 1
    for (let at = hash & mask; this.hashes[at] !== empty; at = (at + 1) & mask) {
      if (this.hashes[at] === hash && this.slots[at] === slot) this.hashes[at] = removed
    }
  }

  /** Every slot stored under this hash. */
  find(hash: number): number[] {
    const found: number[] = []
    const mask = this.hashes.length - 1
    for (let at = hash & mask; this.hashes[at] !== empty; at = (at + 1) & mask) {
      if (this.hashes[at] === hash) found.push(this.slots[at]!)
    }
    return found
  }

  private rehash(capacity: number): void {
    const [hashes, slots] = [this.hashes, this.slots]
    this.hashes = new Uint32Array(capacity)
    this.slots = new Int32Array(capacity)
    this.used = 0
    for (let at = 0; at < hashes.length; at++) {
      if (hashes[at] !== empty && hashes[at] !== removed) this.add(hashes[at]!, slots[at]!)
    }
  }
}
