/** Appends to a control log and drops the oldest entries past `limit`, so a long demo session stays small. */
export function appendBounded<T>(list: T[], item: T, limit: number): void {
  list.push(item)
  if (list.length > limit) list.splice(0, list.length - limit)
}

/**
 * A log bounded both by entries and by bytes, oldest first out: one entry may hold a request's whole
 * body, so a count alone lets a few large posts hold hundreds of megabytes.
 */
export class ByteBoundedLog<T> {
  readonly entries: T[] = []
  private readonly sizes: number[] = []
  private bytes = 0

  constructor(
    private readonly limit: number,
    private readonly byteLimit: number,
  ) {}

  /** `size` is the entry's weight in bytes, as its caller can best tell it. */
  push(item: T, size: number): void {
    this.entries.push(item)
    this.sizes.push(size)
    this.bytes += size
    let drop = 0
    while (
      drop < this.entries.length - 1 &&
      (this.entries.length - drop > this.limit || this.bytes > this.byteLimit)
    ) {
      this.bytes -= this.sizes[drop] as number
      drop++
    }
    if (drop > 0) {
      this.entries.splice(0, drop)
      this.sizes.splice(0, drop)
    }
  }

  clear(): void {
    this.entries.length = 0
    this.sizes.length = 0
    this.bytes = 0
  }

  get byteSize(): number {
    return this.bytes
  }
}
