import { readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const dir = new URL('../../../../resources/taxonomies/', import.meta.url)
const load = (name: string): unknown => JSON.parse(readFileSync(new URL(name, dir), 'utf8'))

describe('taxonomy files', () => {
  it.each([
    'industries.json',
    'technologies.json',
    'revenue_ranges.json',
    'funding_rounds.json',
    'seniorities.json',
  ])('%s is a non-empty list of unique strings', (name) => {
    const values = load(name) as string[]
    expect(values.length).toBeGreaterThan(0)
    expect(values.every((value) => typeof value === 'string' && value.trim() === value && value !== '')).toBe(
      true,
    )
    expect(new Set(values).size).toBe(values.length)
  })

  it('explains every email status the service may return and whether it is safe to send', () => {
    const statuses = load('email_statuses.json') as { value: string; meaning: string; safeToSend: boolean }[]
    const safe = Object.fromEntries(statuses.map((s) => [s.value, s.safeToSend]))
    expect(safe).toEqual({
      deliverable: true,
      valid: true,
      catch_all: false,
      catch_all_safe: true,
      catch_all_not_safe: false,
      undeliverable: false,
      not_found: false,
    })
    expect(statuses.every((s) => s.meaning.length > 10)).toBe(true)
  })

  it('ships every file the filter catalogue refers to', () => {
    const files = new Set(readdirSync(dir))
    const catalogue = load('filters.json') as {
      leadSearch: { taxonomy: string | null }[]
      companySearch: { taxonomy: string | null }[]
    }
    for (const spec of [...catalogue.leadSearch, ...catalogue.companySearch]) {
      if (spec.taxonomy) expect(files).toContain(spec.taxonomy)
    }
  })
})
