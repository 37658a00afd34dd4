import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { keptExportMs, openExportSink, removeOldExports, writeExport } from '@/db/export-sink'

/*
 * The origin's private file system as a dedicated worker sees it, in memory: the real one runs only
 * in a browser's worker (the e2e export writes it), and cannot be made to run out of room or cut a
 * write short on demand, which is what these tests need of it.
 */
interface Behaviour {
  /** `createSyncAccessHandle` fails (the file is locked, or the system refuses). */
  refuseOpen?: boolean
  /** A write throws this DOMException name. */
  failWith?: string
  /** A write writes one byte less than asked. */
  short?: boolean
}

class FakeAccess {
  closed = false
  constructor(
    private readonly file: FakeFileHandle,
    private readonly behaviour: Behaviour,
  ) {}
  write(buffer: Uint8Array, { at }: { at: number }): number {
    if (this.behaviour.failWith) throw new DOMException('refused', this.behaviour.failWith)
    const length = this.behaviour.short ? buffer.length - 1 : buffer.length
    const grown = new Uint8Array(Math.max(this.file.bytes.length, at + length))
    grown.set(this.file.bytes)
    grown.set(buffer.subarray(0, length), at)
    this.file.bytes = grown
    return length
  }
  flush(): void {}
  close(): void {
    this.closed = true
  }
}

class FakeFileHandle {
  bytes = new Uint8Array(0)
  access: FakeAccess | null = null
  constructor(
    readonly name: string,
    private readonly behaviour: Behaviour,
  ) {}
  async createSyncAccessHandle(): Promise<FakeAccess> {
    if (this.behaviour.refuseOpen) throw new DOMException('locked', 'NoModificationAllowedError')
    this.access = new FakeAccess(this, this.behaviour)
    return this.access
  }
  async getFile(): Promise<File> {
    return new File([this.bytes], this.name)
  }
}

class FakeFolder {
  readonly files = new Map<string, FakeFileHandle>()
  constructor(private readonly behaviour: Behaviour) {}
  async getDirectoryHandle(): Promise<FakeFolder> {
    return this
  }
  async getFileHandle(name: string, options?: { create?: boolean }): Promise<FakeFileHandle> {
    let file = this.files.get(name)
    if (!file && options?.create) {
      file = new FakeFileHandle(name, this.behaviour)
      this.files.set(name, file)
    }
    if (!file) throw new DOMException('no such file', 'NotFoundError')
    return file
  }
  async removeEntry(name: string): Promise<void> {
    this.files.delete(name)
  }
  async *keys(): AsyncIterable<string> {
    for (const name of [...this.files.keys()]) yield name
  }
}

let behaviour: Behaviour
let folder: FakeFolder

beforeEach(() => {
  behaviour = {}
  folder = new FakeFolder(behaviour)
  vi.stubGlobal('FileSystemFileHandle', FakeFileHandle)
  vi.stubGlobal('navigator', { storage: { getDirectory: async () => folder } })
})
afterEach(() => vi.unstubAllGlobals())

const decoded = async (blob: Blob) => new TextDecoder().decode(await blob.arrayBuffer())

describe('an export written to a file', () => {
  it('holds every byte written, text as UTF-8, a page longer than a slice in several writes', async () => {
    const sink = await openExportSink('text/csv')
    // Six megabytes of UTF-8 in one page: more than one slice of the encoding buffer.
    const long = 'é'.repeat(3_000_000)
    sink.write('Zoë,Nuñez\r\n')
    sink.write(long)
    sink.write(new Uint8Array([0x41, 0x42]))
    const blob = await sink.finish()
    expect(blob.type).toBe('text/csv')
    expect(await decoded(blob)).toBe('Zoë,Nuñez\r\n' + long + 'AB')
    const [file] = [...folder.files.values()]
    expect(folder.files.size).toBe(1)
    expect(file!.access!.closed).toBe(true)
  })

  it('says a full disk in plain words, and a write cut short is one too', async () => {
    for (const fault of [{ failWith: 'QuotaExceededError' }, { short: true }]) {
      Object.assign(behaviour, { failWith: undefined, short: undefined }, fault)
      const sink = await openExportSink('text/csv')
      expect(() => sink.write('a row\r\n')).toThrow(/not enough free disk space/)
      await sink.discard()
    }
    expect(folder.files.size).toBe(0)
  })

  it('passes on any other failure of a write as it is', async () => {
    behaviour.failWith = 'InvalidStateError'
    const sink = await openExportSink('text/csv')
    expect(() => sink.write('a row\r\n')).toThrow('refused')
  })

  it('is written in memory when the file cannot be opened, and leaves no file behind', async () => {
    behaviour.refuseOpen = true
    const sink = await openExportSink('application/json')
    sink.write('[1,2]')
    expect(await decoded(await sink.finish())).toBe('[1,2]')
    expect(folder.files.size).toBe(0)
  })

  it('is written in memory where no file can be written in place (the page, a test)', async () => {
    vi.unstubAllGlobals()
    const sink = await openExportSink('text/csv')
    sink.write('a,b\r\n')
    expect(await decoded(await sink.finish())).toBe('a,b\r\n')
  })

  it('is one Blob once the writing ends, and nothing once it fails (a read of the list refused)', async () => {
    const done = await writeExport('text/csv', async (sink) => {
      sink.write('a,b\r\n')
      return 1
    })
    expect(done.result).toBe(1)
    expect(await decoded(done.blob)).toBe('a,b\r\n')
    folder.files.clear()
    const failing = writeExport('text/csv', async (sink) => {
      sink.write('half a file')
      throw new Error('The database refused the read.')
    })
    await expect(failing).rejects.toThrow('The database refused the read.')
    expect(folder.files.size).toBe(0)
  })

  it('is removed when the export gives up', async () => {
    const sink = await openExportSink('text/csv')
    sink.write('half a file')
    await sink.discard()
    expect(folder.files.size).toBe(0)
  })
})

describe('old export files', () => {
  it('go once older than they are kept, or dated ahead of the clock, or not named as exports', async () => {
    const now = 1_800_000_000_000
    const names = {
      old: `${now - keptExportMs - 1}-old.part`,
      recent: `${now - keptExportMs + 60_000}-recent.part`,
      ahead: `${now + keptExportMs + 1}-ahead.part`,
      stray: 'notes.txt',
    }
    for (const name of Object.values(names)) await folder.getFileHandle(name, { create: true })
    await removeOldExports(now)
    expect([...folder.files.keys()]).toEqual([names.recent])
  })

  it('are looked for before each export writes its own', async () => {
    await folder.getFileHandle('1000-planted.part', { create: true })
    const sink = await openExportSink('text/csv')
    sink.write('x')
    await sink.finish()
    const names = [...folder.files.keys()]
    expect(names).toHaveLength(1)
    expect(names[0]).toMatch(/^\d+-[a-z0-9]+\.part$/)
  })
})
