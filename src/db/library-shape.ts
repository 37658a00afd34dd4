import type { Answers } from '@domain/kinds'
import type { CompanyRecord, ContactRecord, LibraryCountRecord } from './schema'
import { CountChanges } from './counts'
import { wordsOf } from './words'

/** The library's search words and facet counts, the same for every write and for the upgrade. */

export const contactFacets = ['emailStatus', 'seniority', 'country'] as const
export const companyFacets = ['industry', 'country'] as const

export type ContactFacet = (typeof contactFacets)[number]
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

/** Changes to the library's facet counts, gathered in memory and added at once (`addCounts`). */
export class LibraryTally extends CountChanges<LibraryCountRecord, [string, string, string]> {
  constructor() {
    super(({ table, facet, value }) => [table, facet, value])
  }

  /** Counts a contact in (`sign` 1) or out (-1). */
  contact(record: Pick<ContactRecord, (typeof contactFacets)[number]>, sign: 1 | -1): void {
    for (const facet of contactFacets)
      this.change({ table: 'contacts', facet, value: record[facet] ?? '', count: sign })
  }

  company(record: Pick<CompanyRecord, (typeof companyFacets)[number]>, sign: 1 | -1): void {
    for (const facet of companyFacets)
      this.change({ table: 'companies', facet, value: record[facet] ?? '', count: sign })
  }
}
