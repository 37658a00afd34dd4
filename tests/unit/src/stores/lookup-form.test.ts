import { describe, expect, it } from 'vitest'
import {
  companyLookupInput,
  companyLookupProblem,
  leadLookupInput,
  leadLookupProblem,
} from '@/stores/lookup-form'

const lead = { networkUrl: '', firstName: '', lastName: '', domain: '', company: '' }

describe('company lookup form', () => {
  it('needs a domain or a network URL (else 422) and sends what is given', () => {
    expect(companyLookupProblem({ domain: ' ', networkUrl: '' })).toContain('domain or a network URL')
    expect(companyLookupProblem({ domain: 'acme.com', networkUrl: '' })).toBeNull()
    expect(companyLookupInput({ domain: ' Acme.COM ', networkUrl: '' })).toEqual({
      company_domain: 'acme.com',
    })
    expect(companyLookupInput({ domain: '', networkUrl: 'https://n.example.com/c/acme' })).toEqual({
      company_network_url: 'https://n.example.com/c/acme',
    })
  })
})

describe('lead lookup form', () => {
  it('says what is missing, and that a company name does not replace the domain', () => {
    expect(leadLookupProblem(lead)).toContain('missing: first name, last name, company domain')
    const problem = leadLookupProblem({ ...lead, firstName: 'Jane', company: 'Acme' })
    expect(problem).toContain('missing: last name, company domain')
    expect(problem).toContain('A company name does not replace the domain')
    expect(leadLookupProblem({ ...lead, firstName: 'Jane', lastName: 'Doe', domain: 'acme.com' })).toBeNull()
    expect(leadLookupProblem({ ...lead, networkUrl: 'https://n.example.com/in/jane' })).toBeNull()
  })

  it('sends the network URL alone when there is one, else the three fields and the optional company', () => {
    expect(
      leadLookupInput({ ...lead, networkUrl: ' https://n.example.com/in/jane ', firstName: 'X' }),
    ).toEqual({
      network_url: 'https://n.example.com/in/jane',
    })
    expect(
      leadLookupInput({ ...lead, firstName: ' Jane ', lastName: 'Doe', domain: 'ACME.com', company: '' }),
    ).toEqual({
      first_name: 'Jane',
      last_name: 'Doe',
      company_domain: 'acme.com',
    })
    expect(
      leadLookupInput({ ...lead, firstName: 'Jane', lastName: 'Doe', domain: 'acme.com', company: 'Acme' }),
    ).toEqual({ first_name: 'Jane', last_name: 'Doe', company_domain: 'acme.com', company: 'Acme' })
  })
})
