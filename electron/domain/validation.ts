import { detached } from './normalize'
import { domainProblem, identityOf, leadReader, People, type ColumnMapping, type Lead } from './person'

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
  /**
   * Notes the people of rows already in the list, without checking or counting them: the rows
   * checked after them that repeat one are duplicates, as a repeat within one file is.
   */
  see(rows: readonly (readonly string[])[]): void
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

/**
 * A batch's issues as one byte a row (bit `i` for `issueKinds[i]`), to pass between threads as a
 * few bytes a row rather than an array of strings each.
 */
export function packIssues(rows: readonly (readonly RowIssue[])[]): Uint8Array {
  const bytes = new Uint8Array(rows.length)
  for (let at = 0; at < rows.length; at++) {
    const issues = rows[at]!
    let bits = 0
    for (const issue of issues) bits |= 1 << issueBit[issue]
    bytes[at] = bits
  }
  return bytes
}

/** `packIssues` undone: each row's issues in the order of `issueKinds`, the order the check finds them in. */
export function unpackIssues(bytes: Uint8Array): RowIssue[][] {
  const rows = new Array<RowIssue[]>(bytes.length)
  for (let at = 0; at < bytes.length; at++) {
    const bits = bytes[at]!
    const issues: RowIssue[] = []
    if (bits !== 0)
      for (let kind = 0; kind < issueKinds.length; kind++)
        if (bits & (1 << kind)) issues.push(issueKinds[kind]!)
    rows[at] = issues
  }
  return rows
}

const issueBit = Object.fromEntries(issueKinds.map((kind, bit) => [kind, bit])) as Record<RowIssue, number>

export function emptyCounts(): Record<RowIssue, number> {
  return Object.fromEntries(issueKinds.map((kind) => [kind, 0])) as Record<RowIssue, number>
}

/** What is wrong with a row's lead on its own, as bits (bit `i` for `issueKinds[i]`). */
function issueBitsOf(lead: Lead): number {
  let bits = 0
  const byUrl = lead.networkUrl !== ''
  if (!byUrl && (!lead.first || !lead.last)) bits |= 1 << issueBit.missing_name
  if (!lead.domain) {
    if (!byUrl) bits |= 1 << issueBit.missing_domain
  } else {
    const problem = domainProblem(lead.domain)
    if (problem) bits |= 1 << issueBit[problem]
  }
  return bits
}

/**
 * The issues of these bits, in the order of `issueKinds`: one array for each set of issues, shared
 * by every row that has it (a million rows have a few dozen sets), frozen so that none is changed
 * in place.
 */
function issueSet(bits: number): RowIssue[] {
  let set = issueSets[bits]
  if (!set) {
    set = Object.freeze(issueKinds.filter((_, kind) => bits & (1 << kind))) as RowIssue[]
    issueSets[bits] = set
  }
  return set
}

const issueSets: RowIssue[][] = []

function describe(lead: Lead): string {
  const name = [lead.first, lead.last].filter(Boolean).join(' ') || '(no name)'
  const where = lead.domain || lead.networkUrl || '(no domain)'
  return `${name} · ${where}`
}

export function createValidator(mapping: ColumnMapping, lookupKnown: KnownLookup): Validator {
  const people = new People()
  const readLead = leadReader(mapping)
  /** Rows by set of issues, the set as bits. */
  const rowsBySet = new Map<number, number>()
  const examples = Object.fromEntries(issueKinds.map((kind) => [kind, [] as IssueExample[]])) as Record<
    RowIssue,
    IssueExample[]
  >
  /** The kinds with all their examples, as bits: most rows' issues need no example. */
  let examplesFull = 0
  let rows = 0

  const nothingKnown = new Set<string>()
  const duplicate = 1 << issueBit.duplicate
  const known = 1 << issueBit.known

  function noteExamples(bits: number, index: number, lead: Lead): void {
    for (let kind = 0; kind < issueKinds.length; kind++) {
      if (!(bits & (1 << kind))) continue
      const list = examples[issueKinds[kind]!]
      // Kept to the end of the import: copied, so as not to keep the file's text it was cut from.
      list.push({ index, text: detached(describe(lead)) })
      if (list.length >= examplesPerKind) examplesFull |= 1 << kind
    }
  }

  // The loops over a batch are functions of their own, without an `await`: a new import worker
  // optimises them once and early, where the one async function was optimised again and again. Their
  // arrays grow row by row: optimised code makes an array of a given length inline only up to about
  // 16,000 elements, and a batch of 20,000 made with its length threw the code away (after a
  // rehearsal in batches of 1,000, `rehearseImport`).
  /** Each row's lead and identity (pushed to `leads` and `identities`); the identities to ask the library about. */
  function readLeads(batch: readonly (readonly string[])[], leads: Lead[], identities: string[]): string[] {
    const asked: string[] = []
    for (let at = 0; at < batch.length; at++) {
      const lead = readLead(batch[at]!)
      const identity = identityOf(lead)
      leads.push(lead)
      identities.push(identity)
      if (identity) asked.push(identity)
    }
    return asked
  }

  /** Each row's own issues and whether it repeats a person seen before, as bits, in file order. */
  function markRows(leads: readonly Lead[], identities: readonly string[], bits: Uint8Array): void {
    for (let at = 0; at < leads.length; at++) {
      const lead = leads[at]!
      let found = issueBitsOf(lead)
      if (people.repeats(lead, identities[at]!)) found |= duplicate
      bits[at] = found
    }
  }

  /** Each row's issues with the people the library knows, counted and noted. */
  function settleRows(
    startIndex: number,
    leads: readonly Lead[],
    identities: readonly string[],
    knownHere: Set<string>,
    bits: Uint8Array,
  ): RowIssue[][] {
    const out: RowIssue[][] = []
    const anyKnown = knownHere.size > 0
    for (let at = 0; at < leads.length; at++) {
      let found = bits[at]!
      if (anyKnown && knownHere.has(identities[at]!)) found |= known
      rows++
      if (found !== 0) {
        rowsBySet.set(found, (rowsBySet.get(found) ?? 0) + 1)
        if (found & ~examplesFull) noteExamples(found & ~examplesFull, startIndex + at, leads[at]!)
      }
      out.push(issueSet(found))
    }
    return out
  }

  async function check(startIndex: number, batch: readonly (readonly string[])[]): Promise<RowIssue[][]> {
    const leads: Lead[] = []
    const identities: string[] = []
    const asked = readLeads(batch, leads, identities)
    // The library is asked first, and the rows' own issues found while it answers (in another
    // worker): the check does not stand waiting for it.
    const answer = asked.length > 0 ? lookupKnown(asked) : null
    const bits = new Uint8Array(batch.length)
    markRows(leads, identities, bits)
    return settleRows(startIndex, leads, identities, answer ? await answer : nothingKnown, bits)
  }

  function summary(): ValidationSummary {
    const counts = emptyCounts()
    const combinations: Record<string, number> = {}
    let withIssues = 0
    // In the order the sets were first met.
    for (const [bits, count] of rowsBySet) {
      const issues = issueSet(bits)
      combinations[issues.join('+')] = count
      for (const issue of issues) counts[issue] += count
      withIssues += count
    }
    return { rows, clean: rows - withIssues, counts, examples: structuredClone(examples), combinations }
  }

  function see(batch: readonly (readonly string[])[]): void {
    for (const values of batch) people.repeats(readLead(values))
  }

  return { check, summary, see }
}
