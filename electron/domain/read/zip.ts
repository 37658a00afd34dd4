/**
 * The parts of a ZIP archive (an .xlsx workbook is one), each inflated as a stream and within
 * limits: a part is never held whole unless its reader keeps it, and a part that inflates far past
 * its packed size (a "zip bomb") is refused once that is plain, not after it has filled the memory.
 * The limits follow the practice of spreadsheet libraries that read untrusted workbooks (Apache
 * POI's: a part may inflate to at most a hundred times its packed size); `docs/architecture.md`.
 */
import { ImportError } from './errors'

export const zipLimits = {
  /** A part may inflate to at most this many times its packed size... */
  maxRatio: 100,
  /** ...once it has inflated this much: a small part of text packs well and harms no one. */
  ratioFreeBytes: 16 * 1024 * 1024,
  /** Bytes one part may inflate to, however well it packs: past this, read the sheet as CSV. */
  maxPartBytes: 2 * 1024 * 1024 * 1024,
}

export interface ZipEntry {
  name: string
  /** 0: stored; 8: deflated. */
  method: number
  packedSize: number
  /** As the archive declares it; the inflating counts for itself. */
  size: number
  /** Where the entry's local header starts. */
  headerOffset: number
}

const centralSignature = 0x02014b50
const endSignature = 0x06054b50
const localSignature = 0x04034b50

/** Whether `bytes` start as a ZIP archive does. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
}

/** A ZIP archive's entries by name, read from its central directory. */
export class ZipArchive {
  readonly entries = new Map<string, ZipEntry>()
  /** Entries by their name in lower case: writers differ in the case of a part's name. */
  private readonly folded = new Map<string, ZipEntry>()

  constructor(
    private readonly bytes: Uint8Array,
    private readonly broken: (reason: string) => ImportError,
  ) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const end = findEnd(view)
    if (end < 0) throw broken('its table of contents is missing; the file may be cut short')
    let count = view.getUint16(end + 10, true)
    let at = view.getUint32(end + 16, true)
    if (count === 0xffff || at === 0xffffffff) {
      const zip64 = zip64End(view, end)
      if (!zip64) throw broken('its table of contents is damaged')
      ;({ count, at } = zip64)
    }
    const decoder = new TextDecoder()
    for (let index = 0; index < count; index++) {
      if (at + 46 > view.byteLength || view.getUint32(at, true) !== centralSignature)
        throw broken('its table of contents is damaged')
      const nameLength = view.getUint16(at + 28, true)
      const extraLength = view.getUint16(at + 30, true)
      const commentLength = view.getUint16(at + 32, true)
      const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength))
      const entry: ZipEntry = {
        name,
        method: view.getUint16(at + 10, true),
        packedSize: view.getUint32(at + 20, true),
        size: view.getUint32(at + 24, true),
        headerOffset: view.getUint32(at + 42, true),
      }
      readZip64Extra(view, at + 46 + nameLength, extraLength, entry)
      this.entries.set(name, entry)
      this.folded.set(name.toLowerCase(), entry)
      at += 46 + nameLength + extraLength + commentLength
    }
  }

  get(name: string): ZipEntry | undefined {
    return this.entries.get(name) ?? this.folded.get(name.toLowerCase())
  }

  /**
   * A part's bytes as they inflate, a piece at a time. Throws an ImportError ("workbook") when the
   * part inflates past the limits (`zipLimits`) or is damaged. Inflated by the runtime's own
   * DecompressionStream: native, in the browser and in Node alike, and its pieces are small
   * whatever the packing, so a bomb is seen after its first megabytes.
   */
  async *inflate(entry: ZipEntry): AsyncGenerator<Uint8Array> {
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength)
    const local = entry.headerOffset
    if (local + 30 > view.byteLength || view.getUint32(local, true) !== localSignature)
      throw this.broken(`its part ${entry.name} is damaged`)
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true)
    const packed = this.bytes.subarray(start, Math.min(this.bytes.length, start + entry.packedSize))
    let size = 0
    if (entry.method === 0) {
      const slice = 1 << 20
      for (let at = 0; at < packed.length; at += slice) {
        const chunk = packed.subarray(at, at + slice)
        size += chunk.length
        this.check(entry, size)
        yield chunk
      }
      return
    }
    if (entry.method !== 8) throw this.broken(`its part ${entry.name} is packed in a way not supported`)
    const inflating = new DecompressionStream('deflate-raw')
    const writer = inflating.writable.getWriter()
    // Written in slices, each as the reader below makes room for it: a browser inflates a slice
    // whole, so a slice bounds what one write can unpack.
    void (async () => {
      const slice = 16 * 1024
      for (let at = 0; at < packed.length; at += slice)
        await writer.write(packed.subarray(at, at + slice) as Uint8Array<ArrayBuffer>)
      await writer.close()
    })().catch(() => undefined)
    const reader = inflating.readable.getReader()
    try {
      for (;;) {
        let read: Awaited<ReturnType<typeof reader.read>>
        try {
          read = await reader.read()
        } catch {
          throw this.broken(`its part ${entry.name} is damaged`)
        }
        if (read.done) return
        size += read.value.length
        this.check(entry, size)
        yield read.value
      }
    } finally {
      reader.cancel().catch(() => undefined)
    }
  }

  private check(entry: ZipEntry, size: number): void {
    if (size > zipLimits.ratioFreeBytes && size > entry.packedSize * zipLimits.maxRatio) {
      throw new ImportError(
        'workbook',
        `This workbook cannot be read safely: its part ${entry.name} unpacks to more than ${zipLimits.maxRatio} times its packed size, as a “zip bomb” does. A workbook saved by a spreadsheet program never does; save it again from Excel or LibreOffice, or export the sheet as CSV.`,
      )
    }
    if (size > zipLimits.maxPartBytes) {
      const gigabytes = Math.round(zipLimits.maxPartBytes / 1024 ** 3)
      throw new ImportError(
        'workbook',
        `This workbook is too large to read: its part ${entry.name} unpacks to more than ${gigabytes} GB. Export the sheet as CSV and import that instead: a CSV file of any size is read as a stream.`,
      )
    }
  }
}

function findEnd(view: DataView): number {
  const last = Math.max(0, view.byteLength - 22 - 0xffff)
  for (let at = view.byteLength - 22; at >= last; at--) {
    if (view.getUint32(at, true) === endSignature) return at
  }
  return -1
}

function zip64End(view: DataView, end: number): { count: number; at: number } | null {
  const locator = end - 20
  if (locator < 0 || view.getUint32(locator, true) !== 0x07064b50) return null
  const record = Number(view.getBigUint64(locator + 8, true))
  if (record + 56 > view.byteLength || view.getUint32(record, true) !== 0x06064b50) return null
  return {
    count: Number(view.getBigUint64(record + 32, true)),
    at: Number(view.getBigUint64(record + 48, true)),
  }
}

/** The 64-bit sizes and offset of an entry past 4 GB, in the extra field that holds them. */
function readZip64Extra(view: DataView, at: number, length: number, entry: ZipEntry): void {
  const end = at + length
  while (at + 4 <= end) {
    const id = view.getUint16(at, true)
    const size = view.getUint16(at + 2, true)
    if (id === 0x0001) {
      let field = at + 4
      const next = () => {
        const value = field + 8 <= at + 4 + size ? Number(view.getBigUint64(field, true)) : null
        field += 8
        return value
      }
      if (entry.size === 0xffffffff) entry.size = next() ?? entry.size
      if (entry.packedSize === 0xffffffff) entry.packedSize = next() ?? entry.packedSize
      if (entry.headerOffset === 0xffffffff) entry.headerOffset = next() ?? entry.headerOffset
      return
    }
    at += 4 + size
  }
}
