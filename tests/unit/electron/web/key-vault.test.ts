import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createWebKeyVault } from '../../../../electron/web/key-vault'

const key = 'lk_live_0123456789abcdef'
const home = () => mkdtempSync(join(tmpdir(), 'leadkeeper-web-vault-'))

describe('web host key vault', () => {
  it('saves the key to a file only the user can read', () => {
    const keyFile = join(home(), 'api-key')
    const vault = createWebKeyVault({ env: {}, keyFile })
    expect(vault.set(key, 'persistent').ok).toBe(true)
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(key)
    expect(createWebKeyVault({ env: {}, keyFile }).read()).toEqual({ key, storage: 'file' })
  })

  it('reads LEADKEEPER_API_KEY from the environment', () => {
    const vault = createWebKeyVault({ env: { LEADKEEPER_API_KEY: key }, keyFile: join(home(), 'api-key') })
    expect(vault.read()).toEqual({ key, storage: 'environment', fromEnvironment: true })
  })

  it('refuses a cleared environment key after a restart, and reads another one', () => {
    const keyFile = join(home(), 'api-key')
    const env = { LEADKEEPER_API_KEY: key }
    createWebKeyVault({ env, keyFile }).clear()
    const restarted = createWebKeyVault({ env, keyFile })
    expect(restarted.read()).toEqual({ key: null, storage: 'none' })
    expect(restarted.secretStore().note).toMatch(/LEADKEEPER_API_KEY was forgotten/)
    expect(statSync(`${keyFile}.forgotten`).mode & 0o777).toBe(0o600)
    expect(readFileSync(`${keyFile}.forgotten`, 'utf8')).not.toContain(key)
    const other = 'lk_live_fedcba9876543210'
    expect(createWebKeyVault({ env: { LEADKEEPER_API_KEY: other }, keyFile }).read()).toMatchObject({
      key: other,
    })
  })

  it('refuses a key file others can read, and says how to fix it', () => {
    const keyFile = join(home(), 'api-key')
    writeFileSync(keyFile, key)
    chmodSync(keyFile, 0o644)
    const vault = createWebKeyVault({ env: {}, keyFile })
    expect(vault.read()).toEqual({ key: null, storage: 'none' })
    expect(vault.secretStore().note).toContain(`chmod 600 ${keyFile}`)
  })

  it('keeps a session key in memory only, and clearing forgets every source', () => {
    const keyFile = join(home(), 'api-key')
    const vault = createWebKeyVault({ env: { LEADKEEPER_API_KEY: 'lk_from_environment_1234' }, keyFile })
    vault.set(key, 'session')
    expect(vault.read()).toEqual({ key, storage: 'session' })
    expect(() => statSync(keyFile)).toThrow()
    vault.clear()
    expect(vault.read()).toEqual({ key: null, storage: 'none' })
  })
})
