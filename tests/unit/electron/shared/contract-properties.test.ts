import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { channels } from '../../../../electron/shared/contract'

const budget = { numRuns: 500, interruptAfterTimeLimit: 10_000 }

const key = (value: string) => channels['settings/setKey'].input.safeParse({ key: value, storage: 'session' })
const address = (value: string) => channels['settings/update'].input.safeParse({ baseUrl: value })

describe('contract validators', () => {
  it('accepts as a key only printable characters without spaces, 8 to 512 of them', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => {
        const parsed = key(value)
        if (!parsed.success) return
        expect(parsed.data.key).toMatch(/^[\x21-\x7e]{8,512}$/)
      }),
      budget,
    )
  })

  it('accepts every printable key of a plausible length', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\x21-\x7e]{8,64}$/), (value) => {
        expect(key(value).success).toBe(true)
      }),
      budget,
    )
  })

  it('accepts as the service address only https, or plain http to this machine', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.webUrl({ validSchemes: ['http', 'https', 'ftp', 'file'] }), fc.string({ maxLength: 40 })),
        (value) => {
          const parsed = address(value)
          if (!parsed.success || !parsed.data.baseUrl) return
          const url = new URL(parsed.data.baseUrl)
          const loopback =
            url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\./.test(url.hostname)
          expect(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)).toBe(true)
        },
      ),
      budget,
    )
  })

  it('refuses any unknown field of a settings update', () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1, maxLength: 12 })
          .filter(
            (name) => !['baseUrl', 'useSandbox', 'lowBalanceThreshold', 'rateLimitPerMinute'].includes(name),
          ),
        fc.jsonValue(),
        (name, value) => {
          expect(channels['settings/update'].input.safeParse({ [name]: value }).success).toBe(false)
        },
      ),
      budget,
    )
  })
})
