import { createHash } from 'node:crypto'
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { dirname } from 'node:path'
import { readApiKey } from '../engine/key-source'
import type { KeyVault } from '../backend/host'
import { ok } from '../shared/result'

/**
 * The web host has no OS secret store, so a saved key goes to a file only the user can read (0600),
 * the same file the CLI accepts. `LEADKEEPER_API_KEY` and `LEADKEEPER_KEY_FILE` are honoured too.
 *
 * A key from the environment cannot be deleted, and the environment is read again at every start
 * while the address a page set stays in the settings. So clearing it (the user's own clear, or the
 * address moving to another service) records its digest in `<keyFile>.forgotten`, and that key is
 * refused from then on, across restarts; another key in the environment is read as usual.
 */
export function createWebKeyVault(options: { env: NodeJS.ProcessEnv; keyFile: string }): KeyVault {
  const forgottenFile = `${options.keyFile}.forgotten`
  let sessionKey: string | null = null
  let ignoreEnvironment = false
  let problem: string | null = null

  const fromEnvironment = () => {
    if (ignoreEnvironment) return null
    const read = readApiKey({ env: options.env })
    if (!read.ok) {
      if (read.error.code !== 'missing') problem = read.error.message
      return null
    }
    if (isForgotten(forgottenFile, read.key)) {
      problem =
        `The key in ${read.source === 'env' ? 'LEADKEEPER_API_KEY' : 'LEADKEEPER_KEY_FILE'} was forgotten ` +
        'here (removed, or the service address moved), so it is not used. Enter it below to use it ' +
        `again, or delete ${forgottenFile}.`
      return null
    }
    return read
  }

  const fromDisk = () => {
    problem = null
    const fromEnv = fromEnvironment()
    if (fromEnv)
      return {
        key: fromEnv.key,
        storage: fromEnv.source === 'env' ? 'environment' : 'file',
        fromEnvironment: true,
      } as const
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
      const fromEnv = fromEnvironment()
      if (fromEnv) {
        mkdirSync(dirname(forgottenFile), { recursive: true, mode: 0o700 })
        appendFileSync(forgottenFile, `${digest(fromEnv.key)}\n`, { mode: 0o600 })
      }
      sessionKey = null
      ignoreEnvironment = true
      rmSync(options.keyFile, { force: true })
    },
  }
}

/** A key is recorded by its digest: the file names which key is refused without holding it. */
function digest(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

function isForgotten(file: string, key: string): boolean {
  if (!existsSync(file)) return false
  return readFileSync(file, 'utf8').split('\n').includes(digest(key))
}
