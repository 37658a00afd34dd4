import { describe, expect, it } from 'vitest'
import { plainError } from '@/ui/plain-error'

const failed = 'GET /account failed 6 times, giving up: GET /account: connection failed'

describe('plainError', () => {
  it('says a failure in plain words and keeps the exact text as the detail', () => {
    expect(plainError({ code: 'network', message: failed })).toEqual({
      title: "Can't reach the service",
      hint: 'Check the network connection, or the service address in Settings, then try again.',
      detail: failed,
    })
    expect(plainError({ code: 'auth', message: 'HTTP 401' })).toMatchObject({
      title: 'The service refused the API key',
      detail: 'HTTP 401',
    })
    expect(plainError({ code: 'rate_limited', message: '429' }).title).toBe('The service is busy')
    expect(plainError({ code: 'credits', message: 'x' }).hint).toBe('Top up your balance, then try again.')
  })

  it('says "offline" for a network failure or time-out when the computer has no network', () => {
    for (const code of ['network', 'timeout'] as const) {
      expect(plainError({ code, message: failed }, true)).toMatchObject({
        title: "You're offline",
        detail: failed,
      })
    }
    // Offline does not explain a refused key.
    expect(plainError({ code: 'auth', message: 'HTTP 401' }, true).title).toBe(
      'The service refused the API key',
    )
  })

  it("says a cancel was the user's, and anything unforeseen as an unexpected answer", () => {
    expect(plainError({ code: 'cancelled', message: 'The call was cancelled.' })).toEqual({
      title: 'Cancelled',
      hint: null,
      detail: 'Nothing more was sent.',
    })
    expect(plainError({ code: 'invalid_response', message: 'bad JSON' })).toEqual({
      title: 'The service did not answer as expected',
      hint: null,
      detail: 'bad JSON',
    })
  })
})
