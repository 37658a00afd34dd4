import { describe, expect, it } from 'vitest'
import { buildWorld, getWorld } from '../../../../../electron/sandbox/world'
import { taxonomies } from '../../../../../electron/sandbox/world/taxonomies'

const SIZE = { companies: 400, peoplePerCompany: 6 }

describe('synthetic world', () => {
  it('is the same for the same seed and different for another', () => {
    const a = buildWorld(7, SIZE)
    const rebuilt = buildWorld(7, SIZE)
    expect(rebuilt.companies).toEqual(a.companies)
    expect(rebuilt.people.map((p) => [p.id, p.firstName, p.lastName, p.jobTitle, p.networkUrl])).toEqual(
      a.people.map((p) => [p.id, p.firstName, p.lastName, p.jobTitle, p.networkUrl]),
    )
    const other = buildWorld(8, SIZE)
    expect(other.companies.map((c) => c.domain)).not.toEqual(a.companies.map((c) => c.domain))
  })

  it('is built once per seed and size, then shared', () => {
    expect(getWorld(7, { ...SIZE })).toBe(getWorld(7, SIZE))
  })

  it('builds thousands of companies and tens of thousands of people by default', () => {
    const world = getWorld(1, { companies: 3000, peoplePerCompany: 10 })
    expect(world.companies).toHaveLength(3000)
    expect(world.people.length).toBeGreaterThan(20_000)
    expect(new Set(world.companies.map((c) => c.domain)).size).toBe(3000)
  })

  it('draws every company and person value from the shipped taxonomies', () => {
    const world = getWorld(3, SIZE)
    for (const company of world.companies) {
      expect(taxonomies.industries).toContain(company.industry)
      expect(taxonomies.revenueRanges).toContain(company.revenueRange)
      expect(taxonomies.companySizes).toContain(company.sizeRange)
      for (const technology of company.technologies) expect(taxonomies.technologies).toContain(technology)
      if (company.lastFundingRound) expect(taxonomies.fundingRounds).toContain(company.lastFundingRound)
      expect(Object.values(company.byDepartment).reduce((a, b) => a + b, 0)).toBe(company.employeesCount)
      expect(company.employeesCount).toBeGreaterThanOrEqual(company.employeesStart)
      if (company.employeesEnd === null) expect(company.sizeRange).toBe('10001+')
      else expect(company.employeesCount).toBeLessThanOrEqual(company.employeesEnd)
      if (company.lastFundingDate) expect(company.lastFundingDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    }
    for (const person of world.people) {
      expect(taxonomies.seniorities).toContain(person.seniority)
      expect(taxonomies.departments).toContain(person.department)
      expect(person.jobTitle).not.toBe('')
    }
  })

  it('indexes people and companies by their identifiers', () => {
    const world = getWorld(3, SIZE)
    const person = world.people[10]!
    expect(world.personByNetworkUrl.get(person.networkUrl)).toBe(person)
    expect(world.companyByDomain.get(person.company.domain)).toBe(person.company)
    expect(world.companyByNetworkUrl.get(person.company.networkUrl)).toBe(person.company)
  })
})
