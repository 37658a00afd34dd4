import { describe, expect, it } from 'vitest'
import {
  createElectronKeyVault,
  type EncryptedKeyStore,
  type SafeStorageLike,
} from '../../../../electron/main/key-vault'

function memoryStore(): EncryptedKeyStore & { value?: string } {
  const store: EncryptedKeyStore & { value?: string } = {
    get: () => store.value,
    set: (_name, value) => {
      store.value = value
    },
    delete: () => {
      delete store.value
    },
  }
  return store
}

function safeStorage(backend: string): SafeStorageLike {
  return {
    isEncryptionAvailable: () => true,
    encryptString: (plain) => Buffer.from([...Buffer.from(plain)].map((byte) => byte ^ 0x5a)),
    decryptString: (sealed) => Buffer.from([...sealed].map((byte) => byte ^ 0x5a)).toString(),
    getSelectedStorageBackend: () => backend,
  }
}

const key = 'lk_live_0123456789abcdef'

describe('Electron key vault', () => {
  it('keeps the key encrypted at rest and reads it back', () => {
    const store = memoryStore()
    const vault = createElectronKeyVault(store, safeStorage('gnome_libsecret'))
    expect(vault.set(key, 'persistent')).toEqual({ ok: true, data: undefined })
    expect(store.value).toBeDefined()
    expect(Buffer.from(store.value!, 'base64').toString()).not.toContain(key)
    expect(createElectronKeyVault(store, safeStorage('gnome_libsecret')).read()).toEqual({
      key,
      storage: 'encrypted',
    })
  })

  it('says plainly when the OS has no secret store and refuses to save the key to disk', () => {
    const store = memoryStore()
    const vault = createElectronKeyVault(store, safeStorage('basic_text'))
    expect(vault.secretStore()).toMatchObject({ available: false, backend: 'no secret store' })
    expect(vault.secretStore().note).toMatch(/no secret store/)
    expect(vault.set(key, 'persistent')).toMatchObject({ ok: false, error: { code: 'not_available' } })
    expect(store.value).toBeUndefined()
  })

  it('keeps a session-only key in memory, never on disk', () => {
    const store = memoryStore()
    const vault = createElectronKeyVault(store, safeStorage('basic_text'))
    expect(vault.set(key, 'session').ok).toBe(true)
    expect(vault.read()).toEqual({ key, storage: 'session' })
    expect(store.value).toBeUndefined()
    expect(createElectronKeyVault(store, safeStorage('basic_text')).read()).toEqual({
      key: null,
      storage: 'none',
    })
  })

  it('treats a key it can no longer decrypt as absent', () => {
    const store = memoryStore()
    store.value = Buffer.from('garbage').toString('base64')
    const broken: SafeStorageLike = {
      ...safeStorage('kwallet5'),
      decryptString: () => {
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
      },
    }
    expect(createElectronKeyVault(store, broken).read()).toEqual({ key: null, storage: 'none' })
  })

  it('forgets the key when cleared', () => {
    const store = memoryStore()
    const vault = createElectronKeyVault(store, safeStorage('keychain'))
    vault.set(key, 'persistent')
    vault.clear()
    expect(vault.read()).toEqual({ key: null, storage: 'none' })
    expect(store.value).toBeUndefined()
  })
})
