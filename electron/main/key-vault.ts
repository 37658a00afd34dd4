import type { KeyVault, SecretStoreInfo } from '../backend/host'
import { fail, ok } from '../shared/result'

export interface EncryptedKeyStore {
  get(name: 'encryptedApiKey'): string | undefined
  set(name: 'encryptedApiKey', value: string): void
  delete(name: 'encryptedApiKey'): void
}

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean
  encryptString(plain: string): Buffer
  decryptString(encrypted: Buffer): string
  getSelectedStorageBackend?(): string
}

const noSecretStoreNote =
  'This computer offers no secret store (no keyring such as GNOME Keyring or KWallet was found), so a ' +
  'saved key would only be obfuscated on disk. Keep the key for this session only, or install and unlock ' +
  'a keyring and restart Leadkeeper.'

function describeBackend(backend: string | undefined): string {
  if (backend === undefined) return 'encrypted by the system secret store'
  if (backend === 'basic_text') return 'no secret store'
  if (backend.startsWith('gnome')) return 'encrypted with GNOME Keyring'
  if (backend.startsWith('kwallet')) return 'encrypted with KWallet'
  return 'encrypted by the system secret store'
}

/**
 * The key at rest is encrypted by the OS secret store through safeStorage. Where the OS has none
 * (Linux `basic_text`), we refuse to pretend: the key can be kept in memory for this session only.
 */
export function createElectronKeyVault(store: EncryptedKeyStore, safeStorage: SafeStorageLike): KeyVault {
  let sessionKey: string | null = null

  const secretStore = (): SecretStoreInfo => {
    const backend = safeStorage.getSelectedStorageBackend?.()
    const available = safeStorage.isEncryptionAvailable() && backend !== 'basic_text'
    return { available, backend: describeBackend(backend), note: available ? null : noSecretStoreNote }
  }

  return {
    read() {
      if (sessionKey !== null) return { key: sessionKey, storage: 'session' }
      const encrypted = store.get('encryptedApiKey')
      if (!encrypted || !safeStorage.isEncryptionAvailable()) return { key: null, storage: 'none' }
      try {
        return { key: safeStorage.decryptString(Buffer.from(encrypted, 'base64')), storage: 'encrypted' }
      } catch {
        // Encrypted under another OS account or a reset keyring: unreadable, so treated as absent.
        return { key: null, storage: 'none' }
      }
    },
    secretStore,
    set(key, storage) {
      if (storage === 'session') {
        sessionKey = key
        store.delete('encryptedApiKey')
        return ok(undefined)
      }
      if (!secretStore().available) return fail('not_available', noSecretStoreNote)
      store.set('encryptedApiKey', safeStorage.encryptString(key).toString('base64'))
      sessionKey = null
      return ok(undefined)
    },
    clear() {
      sessionKey = null
      store.delete('encryptedApiKey')
    },
  }
}
