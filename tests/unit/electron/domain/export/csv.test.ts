import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { fieldTitle, listColumns } from '../../../../../electron/domain/export/columns'
import { csvHeader, csvRows, neutralise } from '../../../../../electron/domain/export/csv'
import { originsText, type ListRow } from '../../../../../electron/domain/row'

const headers = ['First name', 'Last name', 'Company', 'Email', 'Note']
const day = Date.UTC(2026, 10, 1)

const rows: ListRow[] = [
  {
    index: 0,
    values: ['Zoë', 'Brown', 'Acme, Inc.', 'zoe@acme.example', 'said "call me"'],
    status: 'found',
    result: {
      contact_email_address: 'zoe@acme.example',
      contact_email_address_status: 'valid',
      contact_phone_number: '+49 30 1234',
      contact_full_name: 'Zoë Brown',
      company_name: 'Acme, Inc.',
      contact_industry: ['software', 'retail'],
      company_employees_range_start: 50,
      company_employees_range_end: null,
      company_network_url: { href: 'https://example.org/acme' },
    },
    answers: { email: day, phone: day },
    origins: { email: { via: 'service', at: day }, phone: { via: 'service', at: day } },
  },
  {
    index: 1,
    values: ['=HYPERLINK("http://evil")', '-5', '+Plus', '@at', 'two\r\nlines'],
    status: 'found',
    result: { contact_email_address: '=1+1', contact_job_title: '\tTabbed' },
    origins: {
      email: { via: 'twin', row: 0, at: day },
      phone: { via: 'library', contactId: 'c1', at: day },
    },
  },
  // Fewer cells than headers, no result, no origins, a note.
  { index: 2, values: ['Ada'], status: 'invalid', note: 'Needs a last name, not sent.' },
  { index: 3, values: ['', '', '', '', ''], status: 'pending' },
]

describe('the CSV export', () => {
  it('writes every cell as its column reads it, quoted where needed and formulas neutralised', () => {
    const columns = listColumns(headers)
    const text = csvHeader(columns) + csvRows(columns, rows)
    expect(text.startsWith('\uFEFF')).toBe(true)
    expect(text.endsWith('\r\n')).toBe(true)
    const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data
    expect(parsed[0]).toEqual(columns.map((column) => column.title))
    expect(parsed.slice(1)).toEqual(rows.map((row) => columns.map((column) => neutralise(column.value(row)))))
    // Spelt out for the row with every kind of cell.
    const first = Object.fromEntries(columns.map((column, at) => [column.title, parsed[1]![at]]))
    expect(first).toMatchObject({
      Company: 'Acme, Inc.',
      Note: 'said "call me"',
      Industry: 'software, retail',
      'Employees from': '50',
      'Employees to': '',
      'Company network URL': '{"href":"https://example.org/acme"}',
      'Result from': 'the service',
      'Note (enriched)': '',
    })
    const second = parsed[2]!
    expect(second.slice(0, 5)).toEqual([
      `'=HYPERLINK("http://evil")`,
      // A plain number is read as that number, never run: it needs no apostrophe.
      '-5',
      "'+Plus",
      "'@at",
      'two\r\nlines',
    ])
  })

  it('writes nothing for no rows', () => {
    expect(csvRows(listColumns(headers), [])).toBe('')
  })
})

describe('where a row came from', () => {
  it('reads one place once, and each kind apart when they differ', () => {
    expect(originsText({})).toBe('')
    expect(originsText(rows[0]!)).toBe('the service')
    expect(originsText(rows[1]!)).toBe(
      'email: same person as row 1, not charged; phone: from your library, found 2026-11-01, not charged',
    )
    expect(
      originsText({
        origins: { email: { via: 'service', at: day }, catchAll: { via: 'twin', row: 4, at: day } },
      }),
    ).toBe('email: the service; catch-all: same person as row 5, not charged')
  })
})

describe('a field of the service named for its reader', () => {
  it('takes the list column title where there is one, else its name in words', () => {
    expect(
      [
        'contact_network_profile_url',
        'contact_location_continent',
        'company_description',
        'contact_id',
        'company_fundingdb_url',
        'contact_gender',
        'company_head_quarters_country',
        'company_head_quarters_city',
        'company_total_amount_raised_usd',
        'email_provider',
      ].map(fieldTitle),
    ).toEqual([
      'Network URL',
      'Continent',
      'Company description',
      'Contact ID',
      'Company fundingdb URL',
      'Gender',
      'Company country',
      'Company headquarters city',
      'Company total amount raised USD',
      // Not the list's "Email provider" (`contact_email_address_provider`): another field.
      'Email provider (email_provider)',
    ])
  })
})
