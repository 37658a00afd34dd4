import { z } from 'zod'

/**
 * Expected failures travel as values: Electron only carries an Error's `message` across IPC, and a
 * WebSocket carries none of it, so a thrown error would lose its code on the way to the renderer.
 */
export interface AppError {
  code: ErrorCode
  message: string
}

export const errorCodes = [
  'invalid_input',
  'unknown_channel',
  'internal',
  'no_key',
  'auth',
  'credits',
  'plan',
  'bad_request',
  'not_found',
  'unknown_request',
  'rejected',
  'rate_limited',
  'server',
  'network',
  'timeout',
  'outcome_unknown',
  'invalid_response',
  'not_available',
  'cancelled',
] as const

export type ErrorCode = (typeof errorCodes)[number]

export const appErrorSchema = z.object({ code: z.enum(errorCodes), message: z.string() })

export type Result<T> = { ok: true; data: T } | { ok: false; error: AppError }

export function ok<T>(data: T): Result<T> {
  return { ok: true, data }
}

export function fail<T = never>(code: ErrorCode, message: string): Result<T> {
  return { ok: false, error: { code, message } }
}

export function resultSchema<T extends z.ZodType>(data: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), data }),
    z.object({ ok: z.literal(false), error: appErrorSchema }),
  ])
}
