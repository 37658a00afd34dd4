import { describe, expect, it } from 'vitest'
import { channelNames, channels, type Handlers } from '../../../../electron/shared/contract'
import { dispatch } from '../../../../electron/backend/dispatch'
import { fail, ok } from '../../../../electron/shared/result'

const notCalled = async () => fail('internal', 'the handler must not run on invalid input')

/** A handler table that answers every channel, so validation is the only thing under test. */
const handlers = Object.fromEntries(channelNames.map((name) => [name, notCalled])) as unknown as Handlers

describe('contract', () => {
  it('makes a handler table without every channel a compile error', () => {
    // @ts-expect-error 'account/get' is missing: the type derived from the contract demands every channel.
    const incomplete: Handlers = {
      'app/info': async () => ok({ version: '1', host: 'web', platform: 'linux' }),
      'settings/get': handlers['settings/get'],
      'settings/update': handlers['settings/update'],
      'settings/setKey': handlers['settings/setKey'],
      'settings/clearKey': handlers['settings/clearKey'],
    }
    expect(Object.keys(incomplete)).not.toContain('account/get')
  })

  it.each(channelNames)('refuses invalid input to %s before its handler runs', async (channel) => {
    const result = await dispatch(handlers, channel, { unexpected: ['not', 'valid'], key: 42 })
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('refuses a channel outside the contract', async () => {
    expect(await dispatch(handlers, 'fs/readFile', '/etc/passwd')).toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' },
    })
    expect(await dispatch(handlers, '__proto__', undefined)).toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' },
    })
  })

  it('names the field at fault', async () => {
    const result = await dispatch(handlers, 'settings/update', { lowBalanceThreshold: -5 })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.message).toContain('lowBalanceThreshold')
  })

  it('accepts a service address over https or on loopback only', () => {
    const input = channels['settings/update'].input
    expect(input.safeParse({ baseUrl: 'https://api.example.com/api/v2' }).success).toBe(true)
    expect(input.safeParse({ baseUrl: 'http://127.0.0.1:8787/api/v2' }).success).toBe(true)
    expect(input.safeParse({ baseUrl: '' }).success).toBe(true)
    expect(input.safeParse({ baseUrl: 'http://api.example.com/api/v2' }).success).toBe(false)
    expect(input.safeParse({ baseUrl: 'file:///etc' }).success).toBe(false)
  })

  it('turns a handler that throws into an internal error value', async () => {
    const throwing = { ...handlers, 'app/info': async () => Promise.reject(new Error('boom')) } as Handlers
    expect(await dispatch(throwing, 'app/info', undefined)).toEqual({
      ok: false,
      error: { code: 'internal', message: 'boom' },
    })
  })
})
