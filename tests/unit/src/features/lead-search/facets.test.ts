import { describe, expect, it } from 'vitest'
import { asAsked, emailStatusInfo, facetCounts, facetOf, filterLeads } from '@/features/lead-search/facets'
import { leadsAsTable, leadsForList } from '@/features/lead-search/table'

const leads = [
  {
    contact_first_name: 'Ada',
    contact_last_name: 'Lovelace',
    contact_full_name: 'Ada Lovelace',
    contact_seniority: 'vp',
    contact_location_country: 'France',
    contact_email_address: 'ada@acme.com',
    contact_email_address_status: 'deliverable',
    company_name: 'Acme',
    company_domain: 'acme.com',
    contact_network_profile_url: 'https://network.example.com/in/ada',
  },
  {
    contact_full_name: 'Bob Stone',
    contact_seniority: 'director',
    contact_location_country: 'France',
    contact_email_address_status: 'weird_new_status',
    company_name: 'Acme',
  },
  {
    contact_full_name: 'Cy Young',
    contact_seniority: 'vp',
    contact_location_country: 'Spain',
    company_name: 'Beta',
  },
]

describe('lead facets', () => {
  it('count each value, most frequent first; an unknown status keeps its own value', () => {
    expect(facetCounts(leads, 'country')).toEqual([
      { value: 'France', count: 2 },
      { value: 'Spain', count: 1 },
    ])
    expect(facetCounts(leads, 'emailStatus')).toEqual([
      { value: '', count: 1 },
      { value: 'deliverable', count: 1 },
      { value: 'weird_new_status', count: 1 },
    ])
    expect(facetOf(leads[1]!, 'emailStatus')).toBe('weird_new_status')
  })

  it('filter with OR inside a facet and AND across facets', () => {
    expect(filterLeads(leads, {}).length).toBe(3)
    expect(filterLeads(leads, { seniority: ['vp'] }).map((lead) => lead.contact_full_name)).toEqual([
      'Ada Lovelace',
      'Cy Young',
    ])
    expect(
      filterLeads(leads, { seniority: ['vp', 'director'], company: ['Acme'] }).map(
        (lead) => lead.contact_full_name,
      ),
    ).toEqual(['Ada Lovelace', 'Bob Stone'])
  })

  it('explain email statuses in plain words and never fail on an unknown one', () => {
    expect(emailStatusInfo('catch_all')).toMatchObject({ label: 'Catch-all', safeToSend: false })
    expect(emailStatusInfo('deliverable').safeToSend).toBe(true)
    expect(emailStatusInfo('zzz')).toMatchObject({ value: 'zzz', label: 'Unknown (zzz)', safeToSend: false })
  })
})

describe('leads as list rows', () => {
  it('make a table whose mapping points at the name, domain, email and URL columns', () => {
    const table = leadsAsTable(leads)
    const at = (field: keyof typeof table.mapping) => table.rows[0]![table.mapping[field]!]
    expect(at('first_name')).toBe('Ada')
    expect(at('last_name')).toBe('Lovelace')
    expect(at('company_domain')).toBe('acme.com')
    expect(at('email')).toBe('ada@acme.com')
    expect(at('network_url')).toBe('https://network.example.com/in/ada')
    expect(table.rows[2]![table.mapping.first_name!]).toBe('')
    expect(table.rows.every((row) => row.length === table.columns.length)).toBe(true)
  })

  it('fill the mapped columns of an existing list and leave the others empty', () => {
    const rows = leadsForList(leads.slice(0, 1), ['Note', 'Given', 'Family', 'Site'], {
      first_name: 1,
      last_name: 2,
      website: 3,
    })
    expect(rows).toEqual([['', 'Ada', 'Lovelace', 'acme.com']])
  })

  it('clears the statuses of a search that did not ask for emails, and keeps those of one that did', () => {
    const leads = [
      { key: 'a', contact_email_address: '', contact_email_address_status: 'not_found' },
      { key: 'b', contact_email_address: 'b@x.com', contact_email_address_status: 'deliverable' },
    ]
    expect(asAsked(leads, false).map((lead) => lead.contact_email_address_status)).toEqual(['', ''])
    expect(facetCounts(asAsked(leads, false), 'emailStatus')).toEqual([{ value: '', count: 2 }])
    expect(asAsked(leads, true).map((lead) => lead.contact_email_address_status)).toEqual([
      'not_found',
      'deliverable',
    ])
    expect(leads[0]!.contact_email_address_status).toBe('not_found')
  })
})
