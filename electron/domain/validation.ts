import {
  identityOf,
  isPersonalDomain,
  isWellFormedDomain,
  leadOf,
  mappedFields,
  personKeyOf,
  type ColumnMapping,
  type Lead,
} from './person'

export type RowIssue =
  'missing_name' | 'missing_domain' | 'malformed_domain' | 'personal_domain' | 'duplicate' | 'known'

export const issueKinds: RowIssue[] = [
  'missing_name',
  'missing_domain',
  'malformed_domain',
  'personal_domain',
  'duplicate',
  'known',
]

export interface IssueExample {
  /** 0-based row index; shown to people as `index + 1`. */
  index: number
  /** What the row says, briefly: "Jane Doe · gmail.com". */
  text: string
}

export interface ValidationSummary {
  rows: number
  /** Rows without any issue. */
  clean: number
  counts: Record<RowIssue, number>
  /** The first few rows of each kind. */
  examples: Record<RowIssue, IssueExample[]>
  /** Rows per set of issues (joined by '+'), so skipped rows are counted once however many issues they have. */
  combinations: Record<string, number>
}

const examplesPerKind = 5

/** Which of these identities ('first last@domain') the library already holds. */
export type KnownLookup = (identities: string[]) => Promise<Set<string>>

export interface Validator {
  /** Rows must come in file order, once each: duplicates are the later occurrences. */
  check(startIndex: number, rows: readonly (readonly string[])[]): Promise<RowIssue[][]>
  summary(): ValidationSummary
}

/**
 * Issues a user may choose to skip rows for. Duplicates and people the library knows are not among
 * them: they are never charged again and still come back with their twin's or the library's result.
 */
export const skippableIssues: readonly RowIssue[] = [
  'missing_name',
  'missing_domain',
  'malformed_domain',
  'personal_domain',
]

/** Rows the user chose not to enrich: those with a skipped issue. */
export function skippedRows(summary: ValidationSummary, skipped: (issue: RowIssue) => boolean): number {
  let total = 0
  for (const [set, count] of Object.entries(summary.combinations)) {
    const issues = set.split('+') as RowIssue[]
    if (issues.some((issue) => skippableIssues.includes(issue) && skipped(issue))) total += count
  }
  return total
}

export function emptyCounts(): Record<RowIssue, number> {
  return Object.fromEntries(issueKinds.map((kind) => [kind, 0])) as Record<RowIssue, number>
}

export function issuesOf(lead: Lead): RowIssue[] {
  const issues: RowIssue[] = []
  const byUrl = lead.networkUrl !== ''
  if (!byUrl && (!lead.first || !lead.last)) issues.push('missing_name')
  if (!lead.domain) {
    if (!byUrl) issues.push('missing_domain')
  } else if (!isWellFormedDomain(lead.domain)) issues.push('malformed_domain')
  else if (isPersonalDomain(lead.domain)) issues.push('personal_domain')
  return issues
}

function describe(lead: Lead): string {
  const name = [lead.first, lead.last].filter(Boolean).join(' ') || '(no name)'
  const where = lead.domain || lead.networkUrl || '(no domain)'
  return `${name} · ${where}`
}

export function createValidator(mapping: ColumnMapping, lookupKnown: KnownLookup): Validator {
  const seen = new Set<string>()
  const counts = emptyCounts()
  const examples = Object.fromEntries(issueKinds.map((kind) => [kind, [] as IssueExample[]])) as Record<
    RowIssue,
    IssueExample[]
  >
  const combinations: Record<string, number> = {}
  let rows = 0
  let clean = 0

  async function check(startIndex: number, batch: readonly (readonly string[])[]): Promise<RowIssue[][]> {
    const leads = batch.map((values) => leadOf(mappedFields(values, mapping)))
    const identities = [...new Set(leads.map(identityOf).filter(Boolean))]
    const known = identities.length > 0 ? await lookupKnown(identities) : new Set<string>()
    return leads.map((lead, offset) => {
      const issues = issuesOf(lead)
      const person = personKeyOf(lead)
      if (person) {
        if (seen.has(person)) issues.push('duplicate')
        else seen.add(person)
      }
      const identity = identityOf(lead)
      if (identity && known.has(identity)) issues.push('known')
      rows++
      if (issues.length === 0) clean++
      else combinations[issues.join('+')] = (combinations[issues.join('+')] ?? 0) + 1
      for (const issue of issues) {
        counts[issue]++
        if (examples[issue].length < examplesPerKind) {
          examples[issue].push({ index: startIndex + offset, text: describe(lead) })
        }
      }
      return issues
    })
  }

  return {
    check,
    summary: () => ({
      rows,
      clean,
      counts: { ...counts },
      examples: structuredClone(examples),
      combinations: { ...combinations },
    }),
  }
}
