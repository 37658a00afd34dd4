import type { Emit, KeyStorage } from '../shared/contract'
import type { Result } from '../shared/result'

/** Settings kept on disk. The key is never among them: it lives in a KeyVault. */
export interface PersistedSettings {
  baseUrl: string
  useSandbox: boolean
  lowBalanceThreshold: number
  /** The plan's rate limit: the ceiling of the rate governor (published: 100 on entry plans, 200 above). */
  rateLimitPerMinute: number
}

export const defaultSettings: PersistedSettings = {
  baseUrl: '',
  useSandbox: true,
  lowBalanceThreshold: 100,
  rateLimitPerMinute: 100,
}

export interface SettingsStore {
  load(): PersistedSettings
  save(next: PersistedSettings): void
}

export interface SecretStoreInfo {
  available: boolean
  backend: string
  note: string | null
}

/** Holds the API key on behalf of the backend; only the backend ever reads the key back. */
export interface KeyVault {
  /**
   * `fromEnvironment`: the host's environment supplied the key (the web host's LEADKEEPER_API_KEY or
   * LEADKEEPER_KEY_FILE), so clearing it refuses it from then on rather than deleting it.
   */
  read(): { key: string | null; storage: KeyStorage; fromEnvironment?: boolean }
  secretStore(): SecretStoreInfo
  set(key: string, storage: 'persistent' | 'session'): Result<void>
  clear(): void
}

/** What a host (Electron main, the web host) gives the host-agnostic backend. */
export interface BackendHost {
  kind: 'electron' | 'web'
  version: string
  platform: string
  settings: SettingsStore
  keys: KeyVault
  emit: Emit
  /** Where the job ledger lives; survives restarts. */
  stateDir: string
  /** A native open-file dialog, where the host has one (Electron); the browser uses a file input. */
  pickCsv?: () => Promise<{ name: string; data: Uint8Array } | null>
}

export function maskKey(key: string): string {
  // Short keys would be half revealed by their last four characters.
  return key.length >= 12 ? `••••••••${key.slice(-4)}` : '••••••••'
}
