import { readFileSync, statSync } from 'node:fs'
import { isApiKeyText } from '../domain/service-address'

export type ApiKeySource = 'env' | 'file'

export type ReadApiKeyResult =
  | { ok: true; key: string; source: ApiKeySource; path?: string }
  | {
      ok: false
      error: { code: 'missing' | 'unreadable' | 'insecure' | 'empty' | 'invalid'; message: string }
    }

export interface ReadApiKeyOptions {
  /** Environment to read `LEADKEEPER_API_KEY` and `LEADKEEPER_KEY_FILE` from. */
  env?: Record<string, string | undefined>
  /** Explicit key file; wins over the environment. */
  keyFile?: string
}

/**
 * Finds the API key for the CLI and the web host: an explicit key file, else `LEADKEEPER_API_KEY`,
 * else the file named by `LEADKEEPER_KEY_FILE`. A key file readable by group or others is refused,
 * because anyone who can read the key can spend the organisation's credits.
 */
export function readApiKey(options: ReadApiKeyOptions = {}): ReadApiKeyResult {
  const env = options.env ?? process.env
  const file = options.keyFile ?? (env.LEADKEEPER_API_KEY ? undefined : env.LEADKEEPER_KEY_FILE)
  if (!file) {
    const key = env.LEADKEEPER_API_KEY?.trim()
    if (key) return checked(key, 'LEADKEEPER_API_KEY') ?? { ok: true, key, source: 'env' }
    return {
      ok: false,
      error: {
        code: 'missing',
        message:
          'No API key: set LEADKEEPER_API_KEY, or put the key in a file with `chmod 600` and pass it ' +
          'with --key-file or LEADKEEPER_KEY_FILE (or try --sandbox).',
      },
    }
  }
  let mode: number
  let content: string
  try {
    mode = statSync(file).mode
    content = readFileSync(file, 'utf8')
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error)
    return {
      ok: false,
      error: { code: 'unreadable', message: `Cannot read the key file ${file} (${reason}). Check the path.` },
    }
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    return {
      ok: false,
      error: {
        code: 'insecure',
        message:
          `The key file ${file} is readable by other users (mode ${(mode & 0o777).toString(8)}). ` +
          `Run \`chmod 600 ${file}\` and try again.`,
      },
    }
  }
  const key = content.trim()
  if (!key) {
    return {
      ok: false,
      error: { code: 'empty', message: `The key file ${file} is empty. Put the API key in it.` },
    }
  }
  return checked(key, `The key file ${file}`) ?? { ok: true, key, source: 'file', path: file }
}

/** A key with a space or a control character inside is refused here, before any request is made with it. */
function checked(key: string, where: string): ReadApiKeyResult | null {
  if (isApiKeyText(key)) return null
  return {
    ok: false,
    error: {
      code: 'invalid',
      message: `${where} holds something other than an API key: a key is printable characters without spaces.`,
    },
  }
}
