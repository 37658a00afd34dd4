import type { AppError, ErrorCode } from '@shared/result'

/** A failure said for the person who waits on it: what happened, what to do, and the exact text apart. */
export interface PlainError {
  title: string
  /** What to do about it, when there is something to do. */
  hint: string | null
  /** The exact text of the failure, for a tooltip or a support request. */
  detail: string
}

/**
 * The engine reports failures in its own terms ("GET /account failed 6 times, giving up: …"), right
 * for a log and the command line. The window says what happened in plain words and keeps the exact
 * text as a detail. `offline` is the browser's own knowledge that the computer has no network.
 */
/** Title and what to do, for the failures a person can act on or should know the cause of. */
const plain: Partial<Record<ErrorCode, { title: string; hint: string | null }>> = {
  network: {
    title: "Can't reach the service",
    hint: 'Check the network connection, or the service address in Settings, then try again.',
  },
  timeout: { title: 'The service did not answer in time', hint: 'Try again in a moment.' },
  auth: {
    title: 'The service refused the API key',
    hint: 'Check the key in Settings: it may be mistyped or deactivated.',
  },
  rate_limited: {
    title: 'The service is busy',
    hint: 'Too many requests in the last minute: try again in a minute.',
  },
  server: { title: 'The service had a problem', hint: 'Try again in a moment.' },
  credits: { title: 'Not enough credits', hint: 'Top up your balance, then try again.' },
  plan: { title: 'Your plan does not include this', hint: null },
  no_key: { title: 'No API key set', hint: null },
}

export function plainError(error: AppError, offline = false): PlainError {
  const detail = error.message
  if (offline && (error.code === 'network' || error.code === 'timeout')) {
    return {
      title: "You're offline",
      hint: 'Lists and the library work as usual; calls to the service need the network back.',
      detail,
    }
  }
  if (error.code === 'cancelled') return { title: 'Cancelled', hint: null, detail: 'Nothing more was sent.' }
  return { ...(plain[error.code] ?? { title: 'The service did not answer as expected', hint: null }), detail }
}
