import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { defaultSettings, type PersistedSettings, type SettingsStore } from './host'

/** Settings as a JSON file, for the hosts that have no electron-store (the web host). */
export function createFileSettingsStore(path: string): SettingsStore {
  return {
    load() {
      try {
        const stored = JSON.parse(readFileSync(path, 'utf8')) as Partial<PersistedSettings>
        return { ...defaultSettings, ...pickKnown(stored) }
      } catch {
        return { ...defaultSettings }
      }
    },
    save(next) {
      mkdirSync(dirname(path), { recursive: true })
      const temporary = `${path}.${process.pid}.tmp`
      writeFileSync(temporary, JSON.stringify(next, null, 2))
      renameSync(temporary, path)
    },
  }
}

function pickKnown(stored: Partial<PersistedSettings>): Partial<PersistedSettings> {
  const known: Partial<PersistedSettings> = {}
  if (typeof stored.baseUrl === 'string') known.baseUrl = stored.baseUrl
  if (typeof stored.useSandbox === 'boolean') known.useSandbox = stored.useSandbox
  if (typeof stored.lowBalanceThreshold === 'number') known.lowBalanceThreshold = stored.lowBalanceThreshold
  if (typeof stored.rateLimitPerMinute === 'number' && stored.rateLimitPerMinute > 0)
    known.rateLimitPerMinute = stored.rateLimitPerMinute
  return known
}
