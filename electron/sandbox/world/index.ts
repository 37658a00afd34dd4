import { Faker, en } from '@faker-js/faker'
import { generateCompany } from './companies'
import { generatePerson } from './people'
import { Rng } from './random'
import { identityKey, type World } from './types'

const cache = new Map<string, World>()

export interface WorldSize {
  companies: number
  peoplePerCompany: number
}

export function buildWorld(seed: number, size: WorldSize): World {
  const rng = new Rng(seed)
  const faker = new Faker({ locale: [en] })
  faker.seed(seed)
  const usedDomains = new Set<string>()
  const world: World = {
    seed,
    companies: [],
    people: [],
    companyByDomain: new Map(),
    companyByNetworkUrl: new Map(),
    personByNetworkUrl: new Map(),
    personByIdentity: new Map(),
  }
  for (let i = 0; i < size.companies; i++) {
    const company = generateCompany(100_000 + i, rng, faker, usedDomains)
    world.companies.push(company)
    world.companyByDomain.set(company.domain, company)
    world.companyByNetworkUrl.set(company.networkUrl, company)
    const staff = Math.min(company.employeesCount, rng.int(1, size.peoplePerCompany * 2 - 1))
    for (let j = 0; j < staff; j++) {
      const person = generatePerson(5_000_000 + world.people.length, company, rng, faker)
      const identity = identityKey(person.firstName, person.lastName, company.domain)
      if (world.personByIdentity.has(identity)) continue
      world.people.push(person)
      world.personByIdentity.set(identity, person)
      world.personByNetworkUrl.set(person.networkUrl, person)
    }
  }
  return world
}

/** Built on first need and kept per seed and size: many sandboxes in one test run share one world. */
export function getWorld(seed: number, size: WorldSize): World {
  const key = `${seed}:${size.companies}:${size.peoplePerCompany}`
  let world = cache.get(key)
  if (!world) {
    world = buildWorld(seed, size)
    cache.set(key, world)
  }
  return world
}

export type { Company, Person, Place, World } from './types'
