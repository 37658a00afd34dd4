import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readApiKey } from '../../../../electron/engine/key-source'

describe('readApiKey', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lk-key-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  function keyFile(content: string, mode: number): string {
    const path = join(dir, 'key')
    writeFileSync(path, content)
    chmodSync(path, mode)
    return path
  }

  it('reads the key from the environment', () => {
    expect(readApiKey({ env: { LEADKEEPER_API_KEY: ' k1 \n' } })).toEqual({
      ok: true,
      key: 'k1',
      source: 'env',
    })
  })

  it('reads a 0600 key file, explicit or from LEADKEEPER_KEY_FILE', () => {
    const path = keyFile('secret\n', 0o600)
    expect(readApiKey({ env: {}, keyFile: path })).toMatchObject({ ok: true, key: 'secret', source: 'file' })
    expect(readApiKey({ env: { LEADKEEPER_KEY_FILE: path } })).toMatchObject({ ok: true, key: 'secret' })
  })

  it.skipIf(process.platform === 'win32')(
    'refuses a key file readable by group or others, saying how to fix it',
    () => {
      for (const mode of [0o640, 0o604, 0o644]) {
        const result = readApiKey({ env: {}, keyFile: keyFile('secret', mode) })
        expect(result.ok).toBe(false)
        if (!result.ok) {
          expect(result.error.code).toBe('insecure')
          expect(result.error.message).toContain('chmod 600')
        }
      }
    },
  )

  it('reports a missing key, a missing file and an empty file distinctly', () => {
    const missing = readApiKey({ env: {} })
    expect(!missing.ok && missing.error.code).toBe('missing')
    const absent = readApiKey({ env: {}, keyFile: join(dir, 'nope') })
    expect(!absent.ok && absent.error.code).toBe('unreadable')
    const empty = readApiKey({ env: {}, keyFile: keyFile('  \n', 0o600) })
    expect(!empty.ok && empty.error.code).toBe('empty')
  })
})
