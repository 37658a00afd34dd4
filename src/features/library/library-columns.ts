import type { SelectOption } from 'naive-ui'
import type { GridColumn } from '@/ui/grid-types'
import type { FacetCount } from '@/db/library-query'
import type { CompanyRecord, ContactRecord } from '@/db/records'
import { employeeRange, fundingRoundLabel } from '@/components/company/company-fields'
import { cellText } from '@domain/export/columns'
import { optionLabel } from '@/features/prospecting/taxonomies'

interface LibraryColumn<T> extends GridColumn {
  value: (record: T) => string
}

const date = (at: number) => new Date(at).toLocaleDateString()
const sourceLabels = (record: { sources: { label: string }[] }) =>
  record.sources.map((source) => source.label).join(', ')

export const contactColumns: LibraryColumn<ContactRecord>[] = [
  { key: 'fullName', title: 'Name', width: 190, link: true, value: (c) => c.fullName },
  { key: 'email', title: 'Email', width: 240, value: (c) => c.email },
  { key: 'emailStatus', title: 'Email status', width: 160, value: (c) => c.emailStatus },
  { key: 'phone', title: 'Phone', width: 150, value: (c) => c.phone },
  { key: 'jobTitle', title: 'Job title', width: 180, value: (c) => c.jobTitle },
  {
    key: 'seniority',
    title: 'Seniority',
    width: 110,
    // As the seniority filter names it ("VP", "C-suite").
    value: (c) => (c.seniority ? optionLabel(c.seniority) : ''),
  },
  {
    key: 'companyName',
    title: 'Company',
    width: 170,
    link: true,
    value: (c) => c.companyName || c.companyDomain,
  },
  { key: 'companyDomain', title: 'Domain', width: 150, value: (c) => c.companyDomain },
  { key: 'country', title: 'Country', width: 140, value: (c) => c.country },
  { key: 'sources', title: 'Found by', width: 200, value: sourceLabels },
  { key: 'updatedAt', title: 'Updated', width: 110, value: (c) => date(c.updatedAt) },
]

/**
 * A company's people on its page: the company goes without saying; when each was found (first
 * stored) and last updated.
 */
export const companyPeopleColumns: LibraryColumn<ContactRecord>[] = [
  ...contactColumns.filter(({ key }) =>
    ['fullName', 'jobTitle', 'seniority', 'email', 'emailStatus', 'phone', 'country'].includes(key),
  ),
  { key: 'firstSeenAt', title: 'Found', width: 110, value: (c) => date(c.firstSeenAt) },
  { key: 'updatedAt', title: 'Updated', width: 110, value: (c) => date(c.updatedAt) },
]

export const companyColumns: LibraryColumn<CompanyRecord>[] = [
  { key: 'name', title: 'Name', width: 200, link: true, value: (c) => c.name || c.domain },
  { key: 'domain', title: 'Domain', width: 170, value: (c) => c.domain },
  { key: 'industry', title: 'Industry', width: 170, value: (c) => c.industry },
  { key: 'country', title: 'Country', width: 140, value: (c) => c.country },
  {
    key: 'employees',
    title: 'Employees',
    width: 110,
    // Its head count, else its band as the company's drawer gives it ("201–500").
    value: (c) => cellText(c.data['company_employees_count']) || employeeRange(c.data),
  },
  {
    key: 'funding',
    title: 'Last round',
    width: 130,
    value: (c) => {
      const round = cellText(c.data['company_last_funding_round_name'])
      return round ? fundingRoundLabel(round) : ''
    },
  },
  { key: 'sources', title: 'Found by', width: 220, value: sourceLabels },
  { key: 'updatedAt', title: 'Updated', width: 110, value: (c) => date(c.updatedAt) },
]

/**
 * A facet filter's options: each value the search finds, with how many it finds (its own facet left
 * free), most first; a value picked that the search no longer finds stays, at 0, so that its tag
 * keeps its label. No value ('') is not offered.
 */
export function facetOptions(
  counts: readonly FacetCount[] | undefined,
  picked: readonly string[] | undefined,
  label = (value: string) => value,
): SelectOption[] {
  const shown = (counts ?? []).filter(({ value }) => value !== '')
  const missing = (picked ?? []).filter((value) => !shown.some((count) => count.value === value))
  return [...shown, ...missing.map((value) => ({ value, count: 0 }))].map(({ value, count }) => ({
    value,
    label: `${label(value)} · ${count.toLocaleString()}`,
  }))
}
