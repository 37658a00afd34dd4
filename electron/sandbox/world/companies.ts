import type { Faker } from '@faker-js/faker'
import { randomPlace } from './places'
import type { Rng } from './random'
import { taxonomies } from './taxonomies'
import { slug } from './text'
import type { Company } from './types'

const COMPANY_TYPES = [
  'Privately Held',
  'Public Company',
  'Partnership',
  'Self-Employed',
  'Nonprofit',
  'Educational',
  'Government Agency',
]
const TLDS = ['com', 'com', 'com', 'io', 'co', 'net', 'ai']
const SIZE_WEIGHTS = [18, 26, 22, 12, 8, 8, 3, 3]
const ROUND_AMOUNTS: Record<string, [number, number]> = {
  'Pre-Seed': [100_000, 1_000_000],
  Seed: [500_000, 4_000_000],
  'Series A': [3_000_000, 20_000_000],
  'Series B': [10_000_000, 60_000_000],
  'Series C': [30_000_000, 150_000_000],
  'Series D': [60_000_000, 300_000_000],
  'Series E+': [100_000_000, 600_000_000],
  'Debt Financing': [1_000_000, 50_000_000],
  'Private Equity': [20_000_000, 400_000_000],
  Grant: [50_000, 2_000_000],
  IPO: [100_000_000, 1_000_000_000],
}

function weightedIndex(rng: Rng, weights: number[]): number {
  let roll = rng.next() * weights.reduce((a, b) => a + b, 0)
  for (let i = 0; i < weights.length; i++) {
    roll -= weights[i] ?? 0
    if (roll < 0) return i
  }
  return weights.length - 1
}

function parseSizeRange(range: string): [number, number | null] {
  const [start, end] = range.replace('+', '').split('-')
  return [Number(start), end === undefined ? null : Number(end)]
}

function byDepartment(rng: Rng, total: number): Record<string, number> {
  const weights = taxonomies.departments.map(() => rng.next() + 0.1)
  const sum = weights.reduce((a, b) => a + b, 0)
  const out: Record<string, number> = {}
  let left = total
  taxonomies.departments.forEach((dept, i) => {
    out[dept] = Math.floor((total * (weights[i] ?? 0)) / sum)
    left -= out[dept]
  })
  // Flooring loses a few people; giving them to the first departments keeps the sum equal to the headcount.
  for (let i = 0; left > 0; i = (i + 1) % taxonomies.departments.length, left--) {
    const dept = taxonomies.departments[i] as string
    out[dept] = (out[dept] ?? 0) + 1
  }
  return out
}

function fundingDate(rng: Rng): string {
  const year = rng.int(2015, 2026)
  const month = rng.int(1, year === 2026 ? 9 : 12)
  const day = rng.int(1, 28)
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

export function generateCompany(id: number, rng: Rng, faker: Faker, usedDomains: Set<string>): Company {
  const name = faker.company.name().replace(/,/g, '')
  const base = slug(name.replace(/\b(Inc|LLC|Group|and Sons)\b/g, '')).replace(/-/g, '') || `company${id}`
  let domain = `${base}.${rng.pick(TLDS)}`
  for (let n = 2; usedDomains.has(domain); n++) domain = `${base}${n}.${rng.pick(TLDS)}`
  usedDomains.add(domain)

  const sizeIndex = weightedIndex(rng, SIZE_WEIGHTS)
  const sizeRange = taxonomies.companySizes[sizeIndex] ?? '11-50'
  const [employeesStart, employeesEnd] = parseSizeRange(sizeRange)
  const employeesCount = rng.int(employeesStart, employeesEnd ?? employeesStart * 5)
  const revenueIndex = Math.max(
    0,
    Math.min(taxonomies.revenueRanges.length - 1, sizeIndex - 1 + rng.int(-1, 1)),
  )
  const industry = rng.pick(taxonomies.industries)
  const funded = rng.chance(0.65)
  const round = funded ? rng.pick(taxonomies.fundingRounds) : null
  const [low, high] = round ? (ROUND_AMOUNTS[round] ?? [1_000_000, 10_000_000]) : [0, 0]
  const lastAmount = round ? Math.round(rng.int(low, high) / 1000) * 1000 : null
  const hq = randomPlace(rng)
  const companySlug = slug(name)

  return {
    id,
    name,
    domain,
    networkUrl: `https://network.example.com/company/${companySlug}-${id}`,
    fundingdbUrl: `https://fundingdb.example.com/organization/${companySlug}`,
    logoUrl: `https://logos.example.com/${domain}.png`,
    industry,
    type: rng.chance(0.85) ? rng.pick(COMPANY_TYPES) : null,
    description: `${name} is a ${industry.toLowerCase()} company. ${faker.company.catchPhrase()}.`,
    foundedYear: rng.chance(0.85) ? rng.int(1950, 2024) : null,
    keywords: Array.from(new Set([...Array(rng.int(3, 6))].map(() => faker.company.buzzNoun()))),
    technologies: rng.sample(taxonomies.technologies, rng.int(2, 9)).sort(),
    sizeRange,
    employeesStart,
    employeesEnd,
    employeesCount,
    byDepartment: byDepartment(rng, employeesCount),
    revenueRange: taxonomies.revenueRanges[revenueIndex] ?? '$1M-10M',
    locationsCount: rng.int(1, Math.max(1, sizeIndex * 3)),
    lastFundingRound: round,
    lastAmountRaisedUsd: lastAmount,
    totalRaisedUsd: lastAmount === null ? null : lastAmount + Math.round(rng.int(0, high) / 1000) * 1000,
    lastFundingDate: round ? fundingDate(rng) : null,
    hq,
    hqAddress: rng.chance(0.9) ? `${rng.int(1, 999)} ${faker.location.street()}` : '',
    hqZipcode: rng.chance(0.85) ? faker.location.zipCode('#####') : '',
    isB2b: rng.chance(0.7),
    activeJobPostings: rng.chance(0.6) ? rng.int(1, Math.max(2, sizeIndex * 15)) : 0,
  }
}
