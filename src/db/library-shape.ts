import type { Answers } from '@domain/kinds'
import type { CompanyRecord, ContactFacet, ContactRecord, LibraryCountRecord } from './records'
import type { CountDelta } from './counts'
import { wordsOf } from './words'

/** The library's search words and facet counts, the same for every write. */

export const contactFacets = [
  'emailStatus',
  'seniority',
  'country',
  'changed',
] as const satisfies readonly ContactFacet[]
export const companyFacets = ['industry', 'country'] as const

export type { ContactFacet }
export type CompanyFacet = (typeof companyFacets)[number]

/**
 * When each kind of data was answered for this person. Records written before answers were kept
 * tell it by what they hold: an email or its status, a phone, as of their last update.
 */
export function contactAnswers(
  contact: Pick<ContactRecord, 'answers' | 'email' | 'emailStatus' | 'phone' | 'updatedAt'>,
): Answers {
  if (contact.answers) return contact.answers
  const answers: Answers = {}
  if (contact.email || contact.emailStatus) answers.email = contact.updatedAt
  if (contact.phone) answers.phone = contact.updatedAt
  return answers
}

type ContactWordFields = Pick<ContactRecord, 'fullName' | 'email' | 'companyDomain' | 'data'>

/** Records written by an older version may miss a field: it reads as empty. */
export function contactWords(contact: Partial<ContactWordFields>): string[] {
  const contactId = contact.data?.['contact_id']
  const id = typeof contactId === 'number' || (typeof contactId === 'string' && contactId.trim() !== '')
  return wordsOf(
    contact.fullName ?? '',
    contact.email ?? '',
    contact.companyDomain ?? '',
    id ? `c:${String(contactId).trim()}` : '',
  )
}

export function companyWords(company: Partial<Pick<CompanyRecord, 'name' | 'domain'>>): string[] {
  return wordsOf(company.name ?? '', company.domain ?? '')
}

/**
 * Changes to the library's facet counts, gathered in memory and added at once (`addCounts`): by
 * table, facet and value in maps within maps, so that counting a person in makes no key of its own.
 */
export class LibraryTally implements CountDelta<LibraryCountRecord, [string, string, string]> {
  private readonly tables = new Map<LibraryCountRecord['table'], Map<string, Map<string, number>>>()

  readonly keyOf = ({ table, facet, value }: LibraryCountRecord): [string, string, string] => [
    table,
    facet,
    value,
  ]

  /** Counts a contact in (`sign` 1) or out (-1). */
  contact(record: Pick<ContactRecord, (typeof contactFacets)[number]>, sign: 1 | -1): void {
    for (const facet of contactFacets) this.add('contacts', facet, record[facet] ?? '', sign)
  }

  company(record: Pick<CompanyRecord, (typeof companyFacets)[number]>, sign: 1 | -1): void {
    for (const facet of companyFacets) this.add('companies', facet, record[facet] ?? '', sign)
  }

  records(): LibraryCountRecord[] {
    const records: LibraryCountRecord[] = []
    for (const [table, facets] of this.tables)
      for (const [facet, values] of facets)
        for (const [value, count] of values) if (count !== 0) records.push({ table, facet, value, count })
    return records
  }

  private add(table: LibraryCountRecord['table'], facet: string, value: string, count: number): void {
    let facets = this.tables.get(table)
    if (!facets) this.tables.set(table, (facets = new Map()))
    let values = facets.get(facet)
    if (!values) facets.set(facet, (values = new Map()))
    values.set(value, (values.get(value) ?? 0) + count)
  }
}
