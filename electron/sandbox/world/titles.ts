import type { Rng } from './random'

const DEPARTMENTS: Record<string, { label: string; role: string; chief: string }> = {
  engineering: { label: 'Engineering', role: 'Software Engineer', chief: 'Chief Technology Officer' },
  sales: { label: 'Sales', role: 'Account Executive', chief: 'Chief Revenue Officer' },
  marketing: { label: 'Marketing', role: 'Marketing Specialist', chief: 'Chief Marketing Officer' },
  operations: { label: 'Operations', role: 'Operations Analyst', chief: 'Chief Operating Officer' },
  finance: { label: 'Finance', role: 'Financial Analyst', chief: 'Chief Financial Officer' },
  human_resources: { label: 'People', role: 'Talent Partner', chief: 'Chief People Officer' },
  customer_success: {
    label: 'Customer Success',
    role: 'Customer Success Manager',
    chief: 'Chief Customer Officer',
  },
  product: { label: 'Product', role: 'Product Manager', chief: 'Chief Product Officer' },
  legal: { label: 'Legal', role: 'Legal Counsel', chief: 'General Counsel' },
  design: { label: 'Design', role: 'Product Designer', chief: 'Chief Design Officer' },
}

const SENIORITY_WEIGHTS: [string, number][] = [
  ['owner', 1],
  ['founder', 2],
  ['c_suite', 3],
  ['partner', 1],
  ['vp', 5],
  ['head', 6],
  ['director', 10],
  ['manager', 18],
  ['senior', 22],
  ['entry', 28],
  ['intern', 4],
]
const WEIGHT_TOTAL = SENIORITY_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0)

export function randomSeniority(rng: Rng): string {
  let roll = rng.next() * WEIGHT_TOTAL
  for (const [seniority, weight] of SENIORITY_WEIGHTS) {
    roll -= weight
    if (roll < 0) return seniority
  }
  return 'entry'
}

export function jobTitle(seniority: string, department: string): string {
  const dept = DEPARTMENTS[department] ?? {
    label: 'Operations',
    role: 'Analyst',
    chief: 'Chief Executive Officer',
  }
  switch (seniority) {
    case 'owner':
      return 'Owner'
    case 'founder':
      return 'Co-Founder'
    case 'c_suite':
      return dept.chief
    case 'partner':
      return 'Partner'
    case 'vp':
      return `VP of ${dept.label}`
    case 'head':
      return `Head of ${dept.label}`
    case 'director':
      return `Director of ${dept.label}`
    case 'manager':
      return `${dept.label} Manager`
    case 'senior':
      return `Senior ${dept.role}`
    case 'intern':
      return `${dept.label} Intern`
    default:
      return dept.role
  }
}
