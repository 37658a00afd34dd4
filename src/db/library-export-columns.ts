import { cellText } from '@domain/export/columns'
import type { ExportFormat } from './export-file'
import type { CompanyFacet, ContactFacet } from './library-shape'
import type { CompanyRecord, ContactRecord, Provenance } from './records'

/**
 * What an export of the library holds: its requests and its columns, without the writers, so that
 * the page names the columns of a file it joins without loading them (`library-export.ts`).
 */

export type LibraryTable = 'contacts' | 'companies'

/** A search of the library as the library page holds it. */
export interface LibraryExportSearch {
  prefix?: string
  facets?: Partial<Record<ContactFacet | CompanyFacet, string[]>>
  /** People only: those at this company domain alone (a company's page), matched whole. */
  domain?: string
}

export interface LibraryExportRequest {
  table: LibraryTable
  search: LibraryExportSearch
  format: ExportFormat
}

/** One worker's share of the people: part `at` of `of`, part 0 the newest. */
export interface LibraryShare {
  at: number
  of: number
}

interface LibraryColumn<T> {
  title: string
  value: (record: T) => string
}

const day = (at: number) => (Number.isFinite(at) ? new Date(at).toISOString().slice(0, 10) : '')
const foundBy = (sources: readonly Provenance[]) => sources.map((source) => source.label).join(', ')
const field = (data: Record<string, unknown>, key: string) => cellText(data[key])

/** The columns of an export of people: what the library shows, and what identifies each person. */
export const contactExportColumns: LibraryColumn<ContactRecord>[] = [
  { title: 'Name', value: (c) => c.fullName },
  { title: 'First name', value: (c) => field(c.data, 'contact_first_name') },
  { title: 'Last name', value: (c) => field(c.data, 'contact_last_name') },
  { title: 'Email', value: (c) => c.email },
  { title: 'Email status', value: (c) => c.emailStatus },
  { title: 'Phone', value: (c) => c.phone },
  { title: 'Job title', value: (c) => c.jobTitle },
  { title: 'Seniority', value: (c) => c.seniority },
  { title: 'Company', value: (c) => c.companyName },
  { title: 'Company domain', value: (c) => c.companyDomain },
  { title: 'Country', value: (c) => c.country },
  { title: 'City', value: (c) => field(c.data, 'contact_location_city') },
  { title: 'Network URL', value: (c) => c.networkUrl },
  { title: 'Contact id', value: (c) => field(c.data, 'contact_id') },
  { title: 'Found by', value: (c) => foundBy(c.sources) },
  { title: 'First seen', value: (c) => day(c.firstSeenAt) },
  { title: 'Updated', value: (c) => day(c.updatedAt) },
]

export const companyExportColumns: LibraryColumn<CompanyRecord>[] = [
  { title: 'Name', value: (c) => c.name },
  { title: 'Domain', value: (c) => c.domain },
  { title: 'Industry', value: (c) => c.industry },
  { title: 'Country', value: (c) => c.country },
  { title: 'Employees', value: (c) => field(c.data, 'company_employees_count') },
  { title: 'Founded', value: (c) => field(c.data, 'company_founded_year') },
  { title: 'Website', value: (c) => field(c.data, 'company_website') },
  { title: 'Network URL', value: (c) => field(c.data, 'company_network_url') },
  { title: 'Description', value: (c) => field(c.data, 'company_description') },
  { title: 'Found by', value: (c) => foundBy(c.sources) },
  { title: 'First seen', value: (c) => day(c.firstSeenAt) },
  { title: 'Updated', value: (c) => day(c.updatedAt) },
]

/** The column titles of an export of a table: the header of its file. */
export function libraryExportTitles(table: LibraryTable): string[] {
  return (table === 'contacts' ? contactExportColumns : companyExportColumns).map((column) => column.title)
}
