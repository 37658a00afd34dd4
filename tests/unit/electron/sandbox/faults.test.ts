import { describe, expect, it } from 'vitest'
import { Faults } from '../../../../electron/sandbox/faults'

describe('Faults.evaluate', () => {
  it('fires every matching request by default and ignores other endpoints', () => {
    const faults = new Faults(1)
    faults.set([{ endpoint: 'GET /account', kind: 'status500' }])
    expect(faults.evaluate('GET /account', false).status500).toBeDefined()
    expect(faults.evaluate('GET /account', false).status500).toBeDefined()
    expect(faults.evaluate('POST /async', true)).toEqual({})
  })

  it('honours skip then times', () => {
    const faults = new Faults(1)
    faults.set([{ endpoint: '*', kind: 'drop', skip: 2, times: 2 }])
    const fired = Array.from({ length: 6 }, () => faults.evaluate('POST /async', true).drop !== undefined)
    expect(fired).toEqual([false, false, true, true, false, false])
  })

  it('counts only work-creating requests for stuck', () => {
    const faults = new Faults(1)
    faults.set([{ endpoint: '*', kind: 'stuck', times: 1 }])
    expect(faults.evaluate('GET /async/:id', false).stuck).toBeUndefined()
    expect(faults.evaluate('POST /async', true).stuck).toBeDefined()
    expect(faults.evaluate('POST /async', true).stuck).toBeUndefined()
  })

  it('lets several kinds fire on one request', () => {
    const faults = new Faults(1)
    faults.set([
      { endpoint: '*', kind: 'slow', delayMs: 5 },
      { endpoint: 'POST /async', kind: 'status500AfterCreate' },
    ])
    expect(Object.keys(faults.evaluate('POST /async', true)).sort()).toEqual(['slow', 'status500AfterCreate'])
  })

  it('draws probabilities from the seed, restarting with each set of rules', () => {
    const draw = (seed: number) => {
      const faults = new Faults(seed)
      faults.set([{ endpoint: '*', kind: 'status429', probability: 0.3 }])
      return Array.from({ length: 50 }, () => faults.evaluate('GET /account', false).status429 !== undefined)
    }
    const first = draw(9)
    expect(draw(9)).toEqual(first)
    const share = first.filter(Boolean).length / first.length
    expect(share).toBeGreaterThan(0.1)
    expect(share).toBeLessThan(0.6)
  })

  it('refuses unknown kinds', () => {
    expect(() => new Faults(1).set([{ endpoint: '*', kind: 'boom' as never }])).toThrow(/fault kind/)
  })
})
