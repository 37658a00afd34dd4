import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { readApiKey } from '../engine/key-source'
import type { KeyVault } from '../backend/host'
import { ok } from '../shared/result'

/**
 * The web host has no OS secret store, so a saved key goes to a file only the user can read (0600),
 * the same file the CLI accepts. `LEADKEEPER_API_KEY` and `LEADKEEPER_KEY_FILE` are honoured too.
 */
export function createWebKeyVault(options: { env: NodeJS.ProcessEnv; keyFile: string }): KeyVault {
  let sessionKey: string | null = null
  let ignoreEnvironment = false
  let problem: string | null = null

  const fromDisk = () => {
    problem = null
    if (!ignoreEnvironment) {
      const fromEnv = readApiKey({ env: options.env })
      if (fromEnv.ok)
        return { key: fromEnv.key, storage: fromEnv.source === 'env' ? 'environment' : 'file' } as const
      if (fromEnv.error.code !== 'missing') problem = fromEnv.error.message
    }
    if (!existsSync(options.keyFile)) return { key: null, storage: 'none' } as const
    const fromFile = readApiKey({ env: {}, keyFile: options.keyFile })
    if (fromFile.ok) return { key: fromFile.key, storage: 'file' } as const
    problem = fromFile.error.message
    return { key: null, storage: 'none' } as const
  }

  return {
    read() {
      if (sessionKey !== null) return { key: sessionKey, storage: 'session' }
      return fromDisk()
    },
    secretStore() {
      fromDisk()
      return { available: true, backend: `in ${options.keyFile}, readable by you only`, note: problem }
    },
    set(key, storage) {
      if (storage === 'session') {
        sessionKey = key
        return ok(undefined)
      }
      mkdirSync(dirname(options.keyFile), { recursive: true, mode: 0o700 })
      const temporary = `${options.keyFile}.${process.pid}.tmp`
      writeFileSync(temporary, `${key}\n`, { mode: 0o600 })
      renameSync(temporary, options.keyFile)
      sessionKey = null
      ignoreEnvironment = true
      return ok(undefined)
    },
    clear() {
      sessionKey = null
      ignoreEnvironment = true
      rmSync(options.keyFile, { force: true })
    },
  }
}
