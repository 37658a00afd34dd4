import { describe, expect, it } from 'vitest'
import { mapColumns, parseMapOptions } from '../../../../electron/cli/columns'
import { CliError } from '../../../../electron/cli/exit-codes'

describe('mapColumns', () => {
  it.each([
    [
      ['First Name', 'Last Name', 'Company Domain'],
      { first_name: 'First Name', last_name: 'Last Name', company_domain: 'Company Domain' },
    ],
    [['Prénom', 'Nom', 'Site web'], { first_name: 'Prénom', last_name: 'Nom', website: 'Site web' }],
    [['Vorname', 'Nachname', 'E-Mail'], { first_name: 'Vorname', last_name: 'Nachname', email: 'E-Mail' }],
    [
      ['Nombre completo', 'Empresa', 'Dominio'],
      { full_name: 'Nombre completo', company_name: 'Empresa', company_domain: 'Dominio' },
    ],
    [['name', 'LinkedIn URL'], { full_name: 'name', network_url: 'LinkedIn URL' }],
  ])('%j', (headers, expected) => {
    expect(mapColumns(headers)).toEqual(expected)
  })

  it('lets --map win over a guess, and refuses a column that does not exist', () => {
    expect(
      mapColumns(['First Name', 'Last Name', 'Domain', 'Web2'], { company_domain: 'Web2' }).company_domain,
    ).toBe('Web2')
    expect(() => mapColumns(['a'], { first_name: 'b' })).toThrow(CliError)
  })

  it('says which columns it saw and how to map them when it cannot tell', () => {
    expect(() => mapColumns(['who', 'where'])).toThrow(/columns: who, where.*--map/)
  })

  it('parses --map values and refuses unknown fields', () => {
    expect(parseMapOptions(['first_name=Given', 'company_domain = Web '])).toEqual({
      first_name: 'Given',
      company_domain: 'Web',
    })
    expect(() => parseMapOptions(['title=Role'])).toThrow(/FIELD=COLUMN/)
    expect(() => parseMapOptions(['first_name'])).toThrow(CliError)
  })
})
