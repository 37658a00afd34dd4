export interface Place {
  continent: string
  country: string
  state: string
  city: string
  phonePrefix: string
}

export interface Company {
  id: number
  name: string
  domain: string
  networkUrl: string
  fundingdbUrl: string
  logoUrl: string
  industry: string
  type: string | null
  description: string
  foundedYear: number | null
  keywords: string[]
  technologies: string[]
  sizeRange: string
  employeesStart: number
  employeesEnd: number | null
  employeesCount: number
  byDepartment: Record<string, number>
  revenueRange: string
  locationsCount: number
  lastFundingRound: string | null
  lastAmountRaisedUsd: number | null
  totalRaisedUsd: number | null
  lastFundingDate: string | null
  hq: Place
  hqAddress: string
  hqZipcode: string
  isB2b: boolean
  activeJobPostings: number
}

export interface Person {
  id: number
  firstName: string
  lastName: string
  gender: string
  jobTitle: string
  seniority: string
  department: string
  headline: string
  networkUrl: string
  location: Place
  company: Company
}

export interface World {
  seed: number
  companies: Company[]
  people: Person[]
  companyByDomain: Map<string, Company>
  companyByNetworkUrl: Map<string, Company>
  personByNetworkUrl: Map<string, Person>
  personByIdentity: Map<string, Person>
}

export function identityKey(firstName: string, lastName: string, domain: string): string {
  return `${firstName.trim().toLowerCase()}|${lastName.trim().toLowerCase()}|${domain}`
}
