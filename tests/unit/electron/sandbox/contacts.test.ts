import { describe, expect, it } from 'vitest'
import { companyForDomain, contactTraits, resolvePerson } from '../../../../electron/sandbox/contacts'
import { customFieldsArray } from '../../../../electron/sandbox/rows'
import { countStatuses } from '../../../../electron/sandbox/jobs/summary'
import { getWorld } from '../../../../electron/sandbox/world'

const world = getWorld(11, { companies: 300, peoplePerCompany: 5 })

describe('enrichment of any input', () => {
  it('invents the same person for the same input, whatever the casing', () => {
    const a = resolvePerson(world, 'Ada', 'Lovelace', 'analytical-engines.com')
    const b = resolvePerson(world, 'ADA', 'lovelace', 'https://www.Analytical-Engines.com/')
    expect(a).not.toBeNull()
    expect(b).toEqual(a)
  })

  it('never resolves reserved domains', () => {
    expect(companyForDomain(world, 'nobody.invalid')).toBeNull()
    expect(resolvePerson(world, 'Ada', 'Lovelace', 'example.test')).toBeNull()
  })

  it('spreads email statuses over every value and gives some people a phone', () => {
    const statuses = new Set<string>()
    let phones = 0
    for (let i = 0; i < 300; i++) {
      const person = resolvePerson(world, `First${i}`, `Last${i}`, `firm${i}.com`)
      if (!person) continue
      const traits = contactTraits(world, person, i % 2 === 0)
      statuses.add(traits.emailStatus)
      if (traits.phone) {
        phones++
        expect(traits.phone).toMatch(/^\+\d{8,}$/)
      }
    }
    expect([...statuses].sort()).toEqual(
      [
        'catch_all',
        'catch_all_not_safe',
        'catch_all_safe',
        'deliverable',
        'not_found',
        'undeliverable',
      ].sort(),
    )
    expect(phones).toBeGreaterThan(0)
  })
})

describe('payload helpers', () => {
  it('turns custom_fields into [{name, value, position}] from 0', () => {
    expect(customFieldsArray({ key: 'k1', n: 3, empty: null })).toEqual([
      { name: 'key', value: 'k1', position: 0 },
      { name: 'n', value: '3', position: 1 },
      { name: 'empty', value: '', position: 2 },
    ])
    expect(customFieldsArray(['not', 'an', 'object'])).toEqual([])
  })

  it('counts statuses so that they add up', () => {
    expect(
      countStatuses([
        'deliverable',
        'catch_all',
        'catch_all_safe',
        'catch_all_not_safe',
        'undeliverable',
        'not_found',
      ]),
    ).toEqual({
      total: 6,
      valid: 1,
      catch_all: 2,
      catch_all_not_safe: 1,
      undeliverable: 1,
      not_found: 1,
      found: 5,
    })
  })
})
