import type { ServiceErrorCode } from '../../domain/service-shapes'

export type { ServiceErrorCode }

export interface ServiceErrorInit {
  code: ServiceErrorCode
  message: string
  /** HTTP status when an answer arrived. */
  status?: number
  /** Method and path, e.g. `POST /async`. */
  endpoint?: string
  /** Attempts made, when the retry budget was spent. */
  attempts?: number
  cause?: unknown
}

export class ServiceError extends Error {
  readonly code: ServiceErrorCode
  readonly status?: number
  readonly endpoint?: string
  readonly attempts?: number

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.name = 'ServiceError'
    this.code = init.code
    this.status = init.status
    this.endpoint = init.endpoint
    this.attempts = init.attempts
  }

  /** Plain object that survives IPC and JSON, which carry only own enumerable fields. */
  toJSON(): { code: ServiceErrorCode; message: string; status?: number; endpoint?: string } {
    return { code: this.code, message: this.message, status: this.status, endpoint: this.endpoint }
  }
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError
}

/** Phone and catch-all refusals are 402 too, but topping up does not help: the plan must change. */
const planMessage = /upgrade your plan|don't have access|do not have access/i

export function codeForStatus(status: number, message: string): ServiceErrorCode {
  switch (status) {
    case 400:
      return 'bad_request'
    case 401:
      return 'auth'
    case 402:
      return planMessage.test(message) ? 'plan' : 'credits'
    case 404:
      return 'not_found'
    case 406:
      return 'unknown_request'
    case 422:
      return planMessage.test(message) ? 'plan' : 'rejected'
    case 429:
      return 'rate_limited'
    default:
      return status >= 500 ? 'server' : 'invalid_response'
  }
}
