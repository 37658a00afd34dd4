import type { ChannelInput, JobCounts, JobKind, JobState } from '@shared/contract'
import type { Answers } from '@domain/kinds'
import type { ColumnMapping } from '@domain/person'
import type { ListRow } from '@domain/row'
import type { RowIssue } from '@domain/validation'

/**
 * The records the renderer's database holds (`schema.ts` declares its stores): types only, so that
 * every module of the database layer can name them without importing the database.
 */

/** Row fields a list's queries filter, count and sort by. */
export type RowFacet = 'status' | 'emailStatus' | 'seniority' | 'country' | 'company' | 'hasPhone'

export type FacetValue = string | number

/** The library's facets of a person. */
export type ContactFacet = 'emailStatus' | 'seniority' | 'country' | 'changed'

/**
 * Plain values coded as two strings and a list of names (`value-code.ts`): every string one after
 * another in `strings`, and in `shape`, as char codes, what each value is.
 */
export interface CodedValues {
  /** The objects' field names, each once; a field is coded by its place here. */
  names: string[]
  /** Every string, and every number written out, one after another. */
  strings: string
  /** Char codes: a tag per value, then a length, a count or a name's place as the tag needs. */
  shape: string
}

export type ListState = 'importing' | 'ready' | 'running' | 'done'

export interface ListRecord {
  id: string
  name: string
  createdAt: number
  updatedAt: number
  source: {
    fileName: string
    size: number
    encoding: string
    delimiter: string
    hasHeader: boolean
    /** The header's row number, when rows above it (a title, a note) were left out. */
    headerRow?: number
    /** The sheet read, when the file was an Excel workbook. */
    sheet?: string
  }
  /** Input headers in file order; duplicates made unique ("Email", "Email (2)"). */
  columns: string[]
  mapping: ColumnMapping
  rowCount: number
  state: ListState
  /** Enrichment jobs run for this list, oldest first. */
  jobIds: string[]
  creditsSpent: number
  /**
   * Rows of a file being added (`src/db/list-append.ts`): they are stored from row `from` on and
   * become the list's when the append is finished; an append cut off is taken back from `from`.
   */
  appending?: { from: number; fileName: string }
  /**
   * The list whose rows this one is being made of (`listFromRows`), until it is made; one cut off
   * (its window closed) is deleted.
   */
  makingFrom?: string
}

export type { ColumnMapping, RowIssue }

/** One input row and, once enriched, its result, as the app reads it (stored in a `RowBlock`). */
export interface RowRecord extends ListRow {
  listId: string
  issues: RowIssue[]
  /** The user chose not to send this row. */
  skip: boolean
  /**
   * Facets, from the result: what the block's `FacetBlock` codes. Absent while unknown (every
   * imported row until its result arrives).
   */
  emailStatus?: string
  seniority?: string
  country?: string
  company?: string
  hasPhone?: 0 | 1
  /** Library contact this row resolved to. */
  contactId?: string
  /**
   * When the user removed the row: it stays in its block, to be restored, but is not shown, sent,
   * counted or exported (its status facet reads `removed`). Kept apart from the block, in its
   * `RemovalBlock`, and given to the row as it is read.
   */
  removedAt?: number
  /** When the user edited who the row is after it was answered: the row is sent again by a next run. */
  changedAt?: number
  /** The answers the row held before edits changed who it is, oldest first. */
  earlier?: EarlierAnswer[]
}

/** An answer a row held before an edit changed who it is (`RowRecord.earlier`). */
export interface EarlierAnswer {
  /** When the edit set it aside. */
  at: number
  /** The row's cells then. */
  values: string[]
  status: ListRow['status']
  result?: Record<string, unknown>
  answers?: Answers
}

/** A row as a block holds it: the list is the block's. */
export type StoredRow = Omit<RowRecord, 'listId'>

/**
 * A list's rows, `blockSize` to a record (block n holds rows n·blockSize …): an IndexedDB record
 * has a fixed cost to write, and an index entry per facet would add to it. Keyed by
 * `[listId, block]`, kept beside the record (out of line).
 */
export interface RowBlock {
  listId: string
  block: number
  rows: StoredRow[]
}

/**
 * A block's rows as an import writes them (each pending, not skipped, no result yet), their cells
 * in one string: Chromium stores a block of a thousand rows this way in a seventh of the time an
 * object a row takes. Written from the block's first row, rows without holes; read as a `RowBlock`
 * (`rowBlockOf`, block-shape.ts), and written back coded (`CodedBlock`) once any of its rows changes.
 */
export interface PackedBlock {
  listId: string
  block: number
  /** Rows in the block. */
  size: number
  /** Every cell of the block, one after another, row after row. */
  text: string
  /**
   * As char codes, for each row: its issues (`packIssues`), its number of cells, then each cell's
   * length. No code is a surrogate (lengths are below 0xD800, or the block is not packed).
   */
  layout: string
  /**
   * Each cell in `text` is followed by one character that is not part of it: the file's delimiter or
   * line break, its text kept as it was read (`BatchCells`).
   */
  separated?: true
}

/**
 * A block's rows once any of them has changed (a result, a skip, rows joining it), coded
 * (`codeValues`, value-code.ts): every string of its rows in one text, what each value is in another.
 * Chromium reads enriched rows so in about half the time it takes to read them as objects
 * (value-code.ts), which is most of what an export, a grid's page of rows and every other reader of
 * rows waits for.
 * Rows with a value it cannot code (too long a cell) stay a `RowBlock`.
 */
export interface CodedBlock extends CodedValues {
  listId: string
  block: number
  /** Places in the block's rows, up to its last row (a block of rows may have holes). */
  size: number
}

/** A block as `listBlocks` holds it. */
export type StoredBlock = RowBlock | PackedBlock | CodedBlock

/** One facet of a block's rows, dictionary-coded: row i has `values[codes[i]]`. */
export interface FacetColumn {
  values: FacetValue[]
  codes: Uint8Array | Uint16Array
}

/** The facets with few values a row, whose columns a block keeps together in its `FacetBlock`. */
export type NarrowFacet = Exclude<RowFacet, 'company'>

/**
 * The narrow facets of a block's rows, a few kilobytes beside the block: a query reads these, not
 * the rows, to filter, count and sort a million rows. Written with the block, in the same
 * transaction.
 */
export interface FacetBlock {
  listId: string
  block: number
  size: number
  columns: Record<NarrowFacet, FacetColumn>
}

/**
 * The company column of a block, a record of its own beside its `FacetBlock`: a company a row makes
 * it most of what the facets weigh (a million names at a million rows), so only a query by company
 * reads it. Written with the block, in the same transaction.
 */
export interface CompanyBlock {
  listId: string
  block: number
  size: number
  column: FacetColumn
}

/**
 * A list's facet columns as the query worker last built them (`row-query.ts`): a whole column of
 * codes a facet, with the revision of each block it holds. A first filter after a start reads this
 * record and then only the blocks written since, instead of a facet record a block. A cache: it is
 * written by the query worker, never with the blocks, and a block whose revision differs is read
 * from its own records. `narrow` holds every facet but the company, `company` that one.
 */
export interface ColumnSnapshot {
  listId: string
  part: 'narrow' | 'company'
  /** The revision of each block the columns hold. */
  revs: number[]
  /** Rows covered. */
  size: number
  columns: Partial<Record<RowFacet, { values: FacetValue[]; codes: Uint8Array | Uint16Array | Int32Array }>>
}

/** Each block's revision, bumped with every write: a query worker reloads only what changed. */
export interface BlockRevisions {
  listId: string
  revs: number[]
  /**
   * Bumped by every removal or restore of rows (`listRemovals`), which writes no block: a reader
   * holding rows or a removal mask of the list reads the removals anew.
   */
  removals?: number
}

/**
 * The rows of a block the user removed, kept beside the block (`listRemovals`, keyed like it) so
 * that removing or restoring half a million rows writes a kilobyte a block, not the blocks: row
 * `at` of the block was removed at `times[codes[at] - 1]`, kept where `codes[at]` is 0. A block
 * without removed rows has no record. Every read of rows gives them their `removedAt` from here
 * (`withRemovals`), and every write of whole blocks keeps this in step with the rows written.
 */
export interface RemovalBlock {
  listId: string
  block: number
  times: number[]
  codes: Uint8Array | Uint16Array
}

export interface Provenance {
  kind: 'list' | 'lead_search' | 'company_search' | 'lookup'
  /** List id, search run id or lookup id. */
  id: string
  label: string
  at: number
}

/**
 * What an answer changed in what the library held of a person: their company (a new domain; the
 * names are kept), job title or email. Kept, oldest first, as it was seen.
 */
export interface ContactChange {
  field: 'company' | 'jobTitle' | 'email'
  from: string
  to: string
  /** When the answer that brought it was given (its source's `at`). */
  at: number
}

/** The same person is one record whichever list, search or lookup found them. */
export interface ContactRecord {
  /** 'c:<contact_id>' when the service gave one, else 'e:<email>', else 'n:<first last@domain>'. */
  id: string
  fullName: string
  email: string
  emailStatus: string
  phone: string
  jobTitle: string
  seniority: string
  country: string
  companyName: string
  companyDomain: string
  networkUrl: string
  /**
   * 'first last@domain', lower-cased and trimmed, '' when a part is missing: how an imported row
   * finds out that the library already knows this person.
   */
  identity: string
  /** Lower-cased name: the order the whole library is browsed in. */
  nameLower: string
  emailLower: string
  domainLower: string
  /**
   * What a search finds the person by (`words.ts`): each word of the name, the email and the domain,
   * folded (lower case, no accents), and `c:<contact_id>` once the service gave one, so a person
   * first stored by name and domain is found again by their id.
   */
  words: string[]
  /** The latest full payload. */
  data: Record<string, unknown>
  /** When a list run last answered each kind of data for this person (found or not). */
  answers?: Answers
  /** What answers changed in their company, title or email, oldest first. */
  changes?: ContactChange[]
  /**
   * 'changed' when the latest answer changed their company, title or email, else '' (absent in
   * records written before): the library's facet "changed since the last answer".
   */
  changed?: string
  sources: Provenance[]
  firstSeenAt: number
  updatedAt: number
}

/**
 * The library's people, `contactBlockSize` to a record, in the order they were first stored: person
 * s (their slot) is in block ⌊s / size⌋. A person merged with what is known keeps their slot.
 */
export interface ContactBlock {
  block: number
  /** A forgotten person's slot holds `undefined`: the people after keep their slots. */
  contacts: (ContactRecord | undefined)[]
}

/**
 * A block of people as `peopleBlocks` stores it: coded (`codeValues`, value-code.ts) as a list's
 * blocks are, which Chromium reads back in about half the time of the people as objects (every
 * export and page of the library waits for that read). A block holding what cannot be coded is
 * stored as it is.
 */
export interface CodedContactBlock extends CodedValues {
  block: number
  /** Slots in the block, up to its last person. */
  size: number
}

export type StoredContactBlock = ContactBlock | CodedContactBlock

/**
 * What finds a block's people without reading them (`contact-index.ts`), beside the block and
 * written with it: ids, identities, search words, answers, facet columns and key hashes.
 */
export interface ContactKeyBlock {
  block: number
  ids: string[]
  identities: string[]
  /** Each person's `words`, each after a space. */
  words: string[]
  /** When each kind was answered, `dataKinds` in order for each person, NaN where never. */
  answers: Float64Array
  /** Four a person (id, email, identity, contact-id word), 0 where absent. */
  hashes: Uint32Array
  /**
   * One a person: the hash of their company's domain (`keyHash` of `domainLower`), 0 where they have
   * none. A company's page finds its people by these, a compare a person, not a look through words.
   */
  domains: Uint32Array
  facets: Record<ContactFacet, { values: string[]; codes: Uint8Array | Uint16Array }>
}

/** Each contact block's revision, bumped with every write, and how many people there are. */
export interface ContactRevisions {
  id: 'contacts'
  /** Made when the library's first people are stored: an index built from another library is dropped. */
  epoch: string
  /** Slots taken, forgotten people's included: the next new person's slot. */
  size: number
  revs: number[]
  /** The slots of people forgotten, ascending: nobody holds them any more (`forgetContact`). */
  forgotten?: number[]
}

/** The same company is one record, keyed by its lower-case domain. */
export interface CompanyRecord {
  domain: string
  name: string
  nameLower: string
  /** Each word of the name and the domain, folded (`words.ts`). */
  words: string[]
  industry: string
  country: string
  /** Payloads merged field by field: a company search row carries the most. */
  data: Record<string, unknown>
  /** When each field of `data` was last given a value by a payload (its source's `at`). */
  fieldsAt?: Record<string, number>
  sources: Provenance[]
  firstSeenAt: number
  updatedAt: number
}

/**
 * How many rows of a list have each facet value: kept up to date wherever rows change, so the filter
 * bar and the summary read a few records instead of counting a million. Only known values are kept
 * (and every status); a facet's unknown count is the list's total minus its known ones.
 */
export interface FacetCountRecord {
  listId: string
  /** Every facet but the company, whose counts are kept in `CompanyCountBlock`s. */
  facet: RowFacet
  value: string | number
  count: number
}

/**
 * How many rows of a list name each company, for the companies whose name falls in one of 64
 * buckets (`companyBucket`): a change of many rows' companies (a removal, a new list of rows) then
 * writes at most 64 records, not one a company. Only companies with rows are kept.
 */
export interface CompanyCountBlock {
  listId: string
  bucket: number
  names: string[]
  counts: number[]
}

/**
 * How many library records have each value of a facet: kept with every write, so the library's
 * filter bar reads a few records instead of counting a million.
 */
export interface LibraryCountRecord {
  table: 'contacts' | 'companies'
  facet: string
  value: string
  count: number
}

/** Jobs mirrored for the UI, so lists and searches find their jobs after a reload. */
export interface JobMirror {
  jobId: string
  kind: JobKind
  listId?: string
  searchRunId?: string
  label: string
  state: JobState
  counts: JobCounts
  creditsConsumed: number
  createdAt: number
  updatedAt: number
}

/** What a change to a list did (`ListOp.kind`). */
export type ListOpKind = 'edit' | 'remove' | 'restore' | 'rename' | 'forget' | 'append'

/**
 * One change the user made to a list, in the list's history (`src/db/list-ops.ts`): enough to undo
 * and redo it. What a run wrote is not a change of the user's and is never undone.
 */
export interface ListOp {
  listId: string
  /** Order in the list's history, from 1. */
  seq: number
  at: number
  kind: ListOpKind
  /** The change in words: "Edited Website of row 12". */
  label: string
  /** Rows it touched. */
  rows: number
  /** 1 once undone (and not redone): the next change drops it. */
  undone: 0 | 1
  /** Whether it can be undone: a forgotten person is gone for good. */
  undoable: boolean
  /** An edit: each row as it was before and after. */
  before?: StoredRow[]
  after?: StoredRow[]
  /** A removal or a restore: the rows' indexes. */
  indexes?: Int32Array
  /** A rename: the name before and after. */
  names?: [string, string]
  /** An append: the rows it added, `[first, end)`, and the list's columns before and after. */
  range?: [number, number]
  columns?: [string[], string[]]
}

export interface SavedMapping {
  /** Lower-cased, trimmed headers joined by '\u0001'. */
  signature: string
  mapping: ColumnMapping
  savedAt: number
}

export interface SavedSearch {
  id: string
  kind: 'lead' | 'company'
  name: string
  request: Record<string, unknown>
  createdAt: number
  updatedAt: number
}

/** A search as the backend takes it (the pages build it from their filters). */
export type LeadSearchInput = ChannelInput<'jobs/startLeadSearch'>['search']
export type CompanySearchInput = ChannelInput<'jobs/startCompanySearch'>['search']

/** What a run stores as its request: the search as sent, and the chain of pages it belongs to. */
export interface SearchRequest<Search> {
  search: Search
  label: string
  /** The first run of a company search; later pages of the same search point to it. */
  chainId: string
}

interface SearchRunFields {
  /** The job id. */
  id: string
  savedSearchId?: string
  startedAt: number
  state: JobState
  found: number
  creditsConsumed: number
  error?: string
}

/** A search run, typed by its kind: a lead search's request holds a lead search, a company's a company search. */
export type SearchRun =
  | (SearchRunFields & { kind: 'lead'; request: SearchRequest<LeadSearchInput> })
  | (SearchRunFields & { kind: 'company'; request: SearchRequest<CompanySearchInput> })

export interface SearchResultRecord {
  runId: string
  key: string
  kind: 'lead' | 'company'
  data: Record<string, unknown>
}
