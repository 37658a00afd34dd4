import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DebouncedWriter, setAside, writeAtomic } from '../../../../../electron/sandbox/persistence/file'

let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandbox-file-'))
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('writeAtomic', () => {
  it('replaces the whole file and leaves no temporary file', async () => {
    const file = join(dir, 'state.json')
    await writeFile(file, 'old content that is longer than the new one')
    await writeAtomic(file, 'new')
    expect(await readFile(file, 'utf8')).toBe('new')
    expect(await readdir(dir)).toEqual(['state.json'])
  })
})

describe('setAside', () => {
  it('renames the file with the reason and a time stamp, keeping its content', async () => {
    const file = join(dir, 'state.json')
    await writeFile(file, '{torn')
    const moved = await setAside(file, 'corrupt')
    expect(moved).toMatch(/state\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/)
    expect(await readFile(moved as string, 'utf8')).toBe('{torn')
    expect(await readdir(dir)).toHaveLength(1)
  })
})

describe('DebouncedWriter', () => {
  it('coalesces a burst of changes into one write of the latest state', async () => {
    const file = join(dir, 'state.json')
    let version = 0
    let serialized = 0
    const writer = new DebouncedWriter(
      file,
      () => {
        serialized++
        return `version ${version}`
      },
      50,
    )
    for (let change = 1; change <= 20; change++) {
      version = change
      writer.schedule()
    }
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(serialized).toBe(1)
    expect(await readFile(file, 'utf8')).toBe('version 20')
    await writer.close()
  })

  it('writes the last state on close even before the delay has passed, then stops scheduling', async () => {
    const file = join(dir, 'state.json')
    let state = 'first'
    const writer = new DebouncedWriter(file, () => state, 60_000)
    writer.schedule()
    state = 'final'
    await writer.close()
    expect(await readFile(file, 'utf8')).toBe('final')
    state = 'after close'
    writer.schedule()
    await writer.close()
    expect(await readFile(file, 'utf8')).toBe('final')
  })
})
