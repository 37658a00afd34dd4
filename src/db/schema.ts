import Dexie, { type EntityTable } from 'dexie'
import type { ContactFacet } from './library-shape'
import type { FacetValue, RowFacet } from './facet-tally'
import {
  companiesOutOfFacets,
  blocksKeyedApart,
  contactsInLargerBlocks,
  contactsIntoBlocks,
  facetCountsOfRows,
  libraryWordsAndCounts,
  libraryWordsRefolded,
  rowsIntoBlocks,
} from './upgrades'
import type { ChannelInput, JobCounts, JobKind, JobState } from '@shared/contract'
import type { Answers } from '@domain/kinds'
import type { ColumnMapping } from '@domain/person'
import type { CodedValues } from './value-code'
import type { ListRow } from '@domain/row'
import type { RowIssue } from '@domain/validation'

/**
 * The renderer's offline cache, in IndexedDB. The job ledger on disk is the record of what was
 * bought; this database is what the user browses, searches and exports, also without a network.
 * Every change of shape is a new `version(n)` with its upgrade, never an edit of an old one.
 */

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
   * imported row until its result arrives); '' and 0 (written by version 1) mean the same.
   */
  emailStatus?: string
  seniority?: string
  country?: string
  company?: string
  hasPhone?: 0 | 1
  /** Library contact this row resolved to. */
  contactId?: string
}

/** A row as a block holds it: the list is the block's. */
export type StoredRow = Omit<RowRecord, 'listId'>

/**
 * A list's rows, `blockSize` to a record (block n holds rows n·blockSize …): one IndexedDB record
 * per row costs ~0.2 ms of write time and an index entry per facet, a thousand to a record ~140×
 * less. Keyed by `[listId, block]`, kept beside the record (out of line).
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
   * line break, its text kept as it was read (`BatchCells`; since version 16).
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
 * transaction. (Versions 3 to 7 kept the company column here too: `LegacyFacetBlock`.)
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

/** A block's facets as versions 3 to 7 stored them: every facet in one record. */
export interface LegacyFacetBlock {
  listId: string
  block: number
  size: number
  columns: Record<RowFacet, FacetColumn>
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
}

export interface Provenance {
  kind: 'list' | 'lead_search' | 'company_search' | 'lookup'
  /** List id, search run id or lookup id. */
  id: string
  label: string
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
  contacts: ContactRecord[]
}

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
  facets: Record<ContactFacet, { values: string[]; codes: Uint8Array | Uint16Array }>
}

/** Each contact block's revision, bumped with every write, and how many people there are. */
export interface ContactRevisions {
  id: 'contacts'
  /** Made when the library's first people are stored: an index built from another library is dropped. */
  epoch: string
  size: number
  revs: number[]
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
  facet: 'status' | 'emailStatus' | 'seniority' | 'country' | 'company' | 'hasPhone'
  value: string | number
  count: number
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

export class LeadkeeperDb extends Dexie {
  lists!: EntityTable<ListRecord, 'id'>
  listBlocks!: Dexie.Table<StoredBlock, [string, number]>
  listFacets!: Dexie.Table<FacetBlock, [string, number]>
  listCompanies!: Dexie.Table<CompanyBlock, [string, number]>
  blockRevs!: EntityTable<BlockRevisions, 'listId'>
  listColumns!: Dexie.Table<ColumnSnapshot, [string, string]>
  peopleBlocks!: Dexie.Table<ContactBlock, number>
  peopleKeys!: Dexie.Table<ContactKeyBlock, number>
  contactRevs!: EntityTable<ContactRevisions, 'id'>
  companies!: EntityTable<CompanyRecord, 'domain'>
  jobs!: EntityTable<JobMirror, 'jobId'>
  mappings!: EntityTable<SavedMapping, 'signature'>
  savedSearches!: EntityTable<SavedSearch, 'id'>
  searchRuns!: EntityTable<SearchRun, 'id'>
  searchResults!: Dexie.Table<SearchResultRecord, [string, string]>
  facetCounts!: Dexie.Table<FacetCountRecord, [string, string, string | number]>
  libraryCounts!: Dexie.Table<LibraryCountRecord, [string, string, string]>

  constructor(name = 'leadkeeper') {
    super(name)
    this.version(1).stores({
      lists: 'id, updatedAt',
      rows: '[listId+index], [listId+status], [listId+emailStatus], [listId+seniority], [listId+country], [listId+company], [listId+hasPhone]',
      contacts:
        'id, identity, nameLower, emailLower, domainLower, emailStatus, seniority, country, updatedAt',
      companies: 'domain, nameLower, industry, country, updatedAt',
      jobs: 'jobId, listId, searchRunId, state',
      mappings: 'signature',
      savedSearches: 'id, kind, updatedAt',
      searchRuns: 'id, savedSearchId, kind, startedAt',
      searchResults: '[runId+key], runId',
    })
    this.version(2)
      .stores({ facetCounts: '[listId+facet+value]' })
      .upgrade((tx) => facetCountsOfRows(tx))
    // Rows move into blocks; the old table goes in the next version, once they are copied.
    this.version(3)
      .stores({ blocks: '[listId+block]', blockFacets: '[listId+block]', blockRevs: 'listId' })
      .upgrade((tx) => rowsIntoBlocks(tx))
    this.version(4).stores({ rows: null })
    // The library is searched by words (any word of a name, accents folded) and counts its facets.
    this.version(5)
      .stores({
        contacts: 'id, identity, nameLower, *words, emailStatus, seniority, country',
        companies: 'domain, nameLower, *words, industry, country',
        libraryCounts: '[table+facet+value]',
      })
      .upgrade((tx) => libraryWordsAndCounts(tx))
    // The library's people move into blocks (one record each caps writes near 14,000 a second);
    // the old table goes in the next version, once they are copied.
    this.version(6)
      .stores({ contactBlocks: 'block', contactKeys: 'block', contactRevs: 'id' })
      .upgrade((tx) => contactsIntoBlocks(tx))
    this.version(7).stores({ contacts: null })
    // A block's company column moves out of its facets: a filter by any other facet reads a tenth.
    this.version(8)
      .stores({ blockCompanies: '[listId+block]' })
      .upgrade((tx) => companiesOutOfFacets(tx))
    // The query worker keeps a list's facet columns whole, for a first filter after a start.
    this.version(9).stores({ listColumns: '[listId+part]' })
    // The library's people in blocks of 100, not 50: a block then passes 64 kB, which Chromium keeps
    // in a file of its own, written 4-7× as fast as in the database's log (contact-index.ts).
    this.version(10).upgrade((tx) => contactsInLargerBlocks(tx))
    // Blocks keyed beside their records, not inside them: Chromium clones a record whose key is
    // inside it (to read the key from the clone), which tripled the cost of writing a block.
    // The old tables go in the next version, once they are copied.
    this.version(11)
      .stores({ listBlocks: '', listFacets: '', listCompanies: '', peopleBlocks: '', peopleKeys: '' })
      .upgrade((tx) => blocksKeyedApart(tx))
    this.version(12).stores({
      blocks: null,
      blockFacets: null,
      blockCompanies: null,
      contactBlocks: null,
      contactKeys: null,
    })
    // The library's words folded anew: letters that are not a letter and an accent ("ø", "ß", "ł")
    // fold too, so "ostergaard" finds Østergaard.
    this.version(13).upgrade((tx) => libraryWordsRefolded(tx))
    // An import writes its rows packed (`PackedBlock`), which a version before this one cannot
    // read: the version number keeps such a version from opening the database.
    this.version(14).stores({})
    // A block whose rows changed is written coded (`CodedBlock`), which a version before this one
    // cannot read; blocks written before stay as they are, read as they were.
    this.version(15).stores({})
    // An import keeps its file's text in a packed block, each cell followed by its delimiter
    // (`PackedBlock.separated`), which a version before this one would read wrong.
    this.version(16).stores({})
  }
}

export { newEpoch, onUpgradeProgress, type UpgradeProgress } from './upgrades'

/** The app's database. Tests make their own `new LeadkeeperDb(uniqueName)` with fake-indexeddb. */
export const db = new LeadkeeperDb()

/** The engine's row key for a list row; results come home by it. */
export function rowKey(listId: string, index: number): string {
  return `${listId}:${index}`
}

export function parseRowKey(key: string): { listId: string; index: number } | null {
  const at = key.lastIndexOf(':')
  if (at <= 0) return null
  const index = Number(key.slice(at + 1))
  return Number.isInteger(index) && index >= 0 ? { listId: key.slice(0, at), index } : null
}
