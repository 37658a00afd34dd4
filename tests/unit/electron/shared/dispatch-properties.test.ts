import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../../../../electron/backend/dispatch'
import { channelNames, channels, type Handlers } from '../../../../electron/shared/contract'
import { maxJsonDepth } from '../../../../electron/shared/json-depth'
import { ok } from '../../../../electron/shared/result'

/** Bounded for CI: a fixed number of runs, and never past this much time whatever the machine. */
const budget = { numRuns: 400, interruptAfterTimeLimit: 10_000 }

/** Every handler records what reached it and answers at once. */
function recordingHandlers() {
  const reached: Array<{ channel: string; input: unknown }> = []
  const handlers = Object.fromEntries(
    channelNames.map((channel) => [
      channel,
      async (input: unknown) => (reached.push({ channel, input }), ok(null)),
    ]),
  ) as unknown as Handlers
  return { reached, handlers }
}

/** A channel's name, a name close to one, or a name an object has without declaring it. */
const channelName = fc.oneof(
  fc.constantFrom(...channelNames),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'settings/', 'jobs/list '),
  fc.string({ maxLength: 24 }),
)

/**
 * What a page can send: any JSON value, or (over Electron's structured clone) any value at all,
 * objects of a null prototype and keys such as `__proto__` included.
 */
const input = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }),
  fc.anything({ maxDepth: 4, withNullPrototype: true, withBigInt: true, withDate: true, withMap: true }),
  fc.constant(undefined),
)

// Invariant: whatever a page sends on whatever channel, dispatch answers with a value; a handler
// runs only with an input its channel's schema accepts, and only as that schema parses it.
describe('contract validators at dispatch', () => {
  it('answers every call with a value, and lets through only what the schema accepts', async () => {
    await fc.assert(
      fc.asyncProperty(channelName, input, async (channel, value) => {
        const { reached, handlers } = recordingHandlers()
        const result = await dispatch(handlers, channel, value)
        if (!result.ok) {
          expect(['unknown_channel', 'invalid_input']).toContain(result.error.code)
          expect(reached).toEqual([])
          return
        }
        expect(reached).toHaveLength(1)
        const known = channels[reached[0]!.channel as keyof typeof channels]
        expect(reached[0]!.channel).toBe(channel)
        expect(reached[0]!.input).toEqual(known.input.parse(value))
      }),
      budget,
    )
    expect(Object.keys(Object.prototype)).toEqual([])
  })

  it('refuses any channel’s input nested past the bound, before its schema or handler', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...channelNames), fc.nat({ max: 3 }), async (channel, extra) => {
        const { reached, handlers } = recordingHandlers()
        let deep: unknown = []
        for (let level = 1; level <= maxJsonDepth + extra; level++) deep = [deep]
        const result = await dispatch(handlers, channel, { deep })
        expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
        expect(reached).toEqual([])
      }),
      budget,
    )
  })
})
