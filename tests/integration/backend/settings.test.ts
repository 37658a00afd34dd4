import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../../electron/backend/dispatch'
import { startTestBackend, type TestBackend } from '../../support/backend'

let bed: TestBackend
beforeEach(async () => {
  bed = await startTestBackend()
})
afterEach(async () => {
  await bed.close()
})

/** The most requests the sandbox saw start within any one rate window (of the scaled clock). */
async function busiestWindow(windowMs: number): Promise<number> {
  const times = (await bed.sandbox.control.log()).requests
    .filter((entry) => entry.path.startsWith('/enrich_profile'))
    .map((entry) => Date.parse(entry.at))
  return Math.max(0, ...times.map((start) => times.filter((t) => t >= start && t < start + windowMs).length))
}

async function lookups(count: number): Promise<void> {
  const results = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      dispatch(bed.backend.handlers, 'lookup/company', { company_domain: `nobody-${index}.invalid` }),
    ),
  )
  // Unknown companies are a 404 value, not an error of the call.
  expect(results.every((result) => result.ok || result.error.code === 'not_found')).toBe(true)
}

describe('the rate limit in the settings', () => {
  it('is the ceiling every call follows, and a change takes effect without a restart', async () => {
    // The backend runs the sandbox a hundred times faster: a rate window of 600 ms.
    const windowMs = 600
    // The sandbox builds its world on first use, holding requests up: not what is measured here.
    await lookups(1)
    await bed.sandbox.control.clearLog()
    const saved = await dispatch(bed.backend.handlers, 'settings/update', { rateLimitPerMinute: 10 })
    expect(saved).toMatchObject({ ok: true, data: { rateLimitPerMinute: 10 } })
    await lookups(25)
    // Paced evenly, a window can hold one request more than the rate at its two edges.
    expect(await busiestWindow(windowMs)).toBeLessThanOrEqual(11)

    await bed.sandbox.control.clearLog()
    await dispatch(bed.backend.handlers, 'settings/update', { rateLimitPerMinute: 60 })
    await lookups(90)
    const busiest = await busiestWindow(windowMs)
    expect(busiest).toBeGreaterThan(11)
    expect(busiest).toBeLessThanOrEqual(61)
  })

  it('refuses a rate limit that is not a positive whole number', async () => {
    for (const rateLimitPerMinute of [0, -5, 1.5]) {
      const result = await dispatch(bed.backend.handlers, 'settings/update', { rateLimitPerMinute })
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    }
    const view = await dispatch(bed.backend.handlers, 'settings/get', undefined)
    expect(view).toMatchObject({ ok: true, data: { rateLimitPerMinute: 100 } })
  })
})
