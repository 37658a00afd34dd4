import { describe, expect, it } from 'vitest'
import { mappingSignature, suggestMapping } from '../../../../electron/domain/mapping'
import { leadOf, mappedFields, normalizeDomain } from '../../../../electron/domain/person'

describe('suggestMapping', () => {
  it.each([
    [['First Name', 'Last Name', 'Company Domain'], { first_name: 0, last_name: 1, company_domain: 2 }],
    [['first_name', 'LAST_NAME', 'Website', 'E-mail'], { first_name: 0, last_name: 1, website: 2, email: 3 }],
    [['Prénom', 'Nom', 'Société', 'Site web'], { first_name: 0, last_name: 1, company_name: 2, website: 3 }],
    [
      ['Vorname', 'Nachname', 'Firma', 'E-Mail-Adresse'],
      { first_name: 0, last_name: 1, company_name: 2, email: 3 },
    ],
    [
      ['Nombre', 'Apellidos', 'Empresa', 'Correo electrónico'],
      { first_name: 0, last_name: 1, company_name: 2, email: 3 },
    ],
    [
      ['Voornaam', 'Achternaam', 'Bedrijfsnaam', 'Domein'],
      { first_name: 0, last_name: 1, company_name: 2, company_domain: 3 },
    ],
    [['Full Name', 'Organization', 'LinkedIn URL'], { full_name: 0, company_name: 1, network_url: 2 }],
    [['Name', 'Company', 'Email Address', 'Notes'], { full_name: 0, company_name: 1, email: 2 }],
  ])('maps %j', (headers, expected) => {
    expect(suggestMapping(headers, [])).toEqual(expected)
  })

  it('keeps the first of two columns claiming a field and leaves custom columns unmapped', () => {
    expect(suggestMapping(['Email', 'Email (2)', 'Favourite colour'], [])).toEqual({ email: 0 })
  })

  it('recognises columns by their values when the headers say nothing', () => {
    const sample = [
      ['Jane', 'jane@acme.com', 'https://www.linkedin.com/in/jane', 'acme.com', 'https://beta.io'],
      ['John', 'john@beta.io', 'https://linkedin.com/in/john-roe/', 'beta.io', 'www.gamma.dev'],
    ]
    expect(suggestMapping(['Column 1', 'Column 2', 'Column 3', 'Column 4', 'Column 5'], sample)).toEqual({
      email: 1,
      network_url: 2,
      company_domain: 3,
      website: 4,
    })
  })
})

describe('reading a row through a mapping', () => {
  it('splits a full name when there are no separate name columns', () => {
    const lead = leadOf(
      mappedFields(['  Jane  van der Berg ', 'acme.com'], { full_name: 0, company_domain: 1 }),
    )
    expect(lead).toMatchObject({ first: 'Jane', last: 'van der Berg', domain: 'acme.com' })
  })

  it('reduces a website or an email address to a domain, in that order', () => {
    expect(normalizeDomain('https://www.Acme.com/about?x=1')).toBe('acme.com')
    expect(normalizeDomain('Jane.Doe@Sub.Acme.co.uk')).toBe('sub.acme.co.uk')
    expect(normalizeDomain('http://WWW2.beta.io:8080/')).toBe('beta.io')
    const website = leadOf(
      mappedFields(['Jane', 'Doe', 'https://acme.com', 'j@gmail.com'], {
        first_name: 0,
        last_name: 1,
        website: 2,
        email: 3,
      }),
    )
    expect(website).toMatchObject({ domain: 'acme.com', domainFrom: 'website' })
    const email = leadOf(
      mappedFields(['Jane', 'Doe', '', 'jane@beta.io'], {
        first_name: 0,
        last_name: 1,
        website: 2,
        email: 3,
      }),
    )
    expect(email).toMatchObject({ domain: 'beta.io', domainFrom: 'email' })
  })
})

describe('mappingSignature', () => {
  it('ignores case and surrounding spaces', () => {
    expect(mappingSignature([' First Name', 'EMAIL '])).toBe(mappingSignature(['first name', 'email']))
    expect(mappingSignature(['a', 'b'])).toBe('a\u0001b')
  })
})
