import type { Faker } from '@faker-js/faker'
import { randomPlace } from './places'
import type { Rng } from './random'
import { taxonomies } from './taxonomies'
import { jobTitle, randomSeniority } from './titles'
import { slug } from './text'
import type { Company, Person } from './types'

export function generatePerson(id: number, company: Company, rng: Rng, faker: Faker): Person {
  const sex = rng.chance(0.5) ? 'female' : 'male'
  const firstName = faker.person.firstName(sex)
  const lastName = faker.person.lastName()
  const seniority = randomSeniority(rng)
  const department = rng.pick(taxonomies.departments)
  const title = jobTitle(seniority, department)
  const location = rng.chance(0.7) ? { ...company.hq } : randomPlace(rng)
  return {
    id,
    firstName,
    lastName,
    gender: sex,
    jobTitle: title,
    seniority,
    department,
    headline: rng.chance(0.85) ? `${title} at ${company.name}` : '',
    networkUrl: `https://network.example.com/in/${slug(`${firstName}-${lastName}`)}-${id.toString(36)}`,
    location,
    company,
  }
}
