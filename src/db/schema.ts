import Dexie, { type EntityTable } from 'dexie'
import type {
  BlockRevisions,
  ColumnSnapshot,
  CompanyBlock,
  CompanyCountBlock,
  CompanyRecord,
  ContactKeyBlock,
  ContactRevisions,
  FacetBlock,
  FacetCountRecord,
  JobMirror,
  LibraryCountRecord,
  ListOp,
  RemovalBlock,
  SavedMapping,
  SavedSearch,
  SearchResultRecord,
  SearchRun,
  StoredBlock,
  StoredContactBlock,
  ListRecord,
} from './records'

export type * from './records'

/**
 * The renderer's offline cache, in IndexedDB. The job ledger on disk is the record of what was
 * bought; this database is what the user browses, searches and exports, also without a network.
 *
 * One version until the first release is tagged: the stores below change in place. From that
 * release on, every change of shape is a new `version(n)` with its upgrade, tested on a fixture
 * database of the released version (docs/storage.md).
 */
export class LeadkeeperDb extends Dexie {
  lists!: EntityTable<ListRecord, 'id'>
  listBlocks!: Dexie.Table<StoredBlock, [string, number]>
  listFacets!: Dexie.Table<FacetBlock, [string, number]>
  listCompanies!: Dexie.Table<CompanyBlock, [string, number]>
  listRemovals!: Dexie.Table<RemovalBlock, [string, number]>
  blockRevs!: EntityTable<BlockRevisions, 'listId'>
  listColumns!: Dexie.Table<ColumnSnapshot, [string, string]>
  peopleBlocks!: Dexie.Table<StoredContactBlock, number>
  peopleKeys!: Dexie.Table<ContactKeyBlock, number>
  contactRevs!: EntityTable<ContactRevisions, 'id'>
  companies!: EntityTable<CompanyRecord, 'domain'>
  jobs!: EntityTable<JobMirror, 'jobId'>
  mappings!: EntityTable<SavedMapping, 'signature'>
  savedSearches!: EntityTable<SavedSearch, 'id'>
  searchRuns!: EntityTable<SearchRun, 'id'>
  searchResults!: Dexie.Table<SearchResultRecord, [string, string]>
  facetCounts!: Dexie.Table<FacetCountRecord, [string, string, string | number]>
  companyCounts!: Dexie.Table<CompanyCountBlock, [string, number]>
  libraryCounts!: Dexie.Table<LibraryCountRecord, [string, string, string]>
  listOps!: Dexie.Table<ListOp, [string, number]>

  constructor(name = 'leadkeeper') {
    super(name)
    // Blocks are keyed beside their records (out of line, ''): Chromium clones a record whose key is
    // inside it to read the key, which a block of a thousand rows pays on every write.
    this.version(1).stores({
      lists: 'id, updatedAt',
      listBlocks: '',
      listFacets: '',
      listCompanies: '',
      listRemovals: '',
      blockRevs: 'listId',
      listColumns: '[listId+part]',
      peopleBlocks: '',
      peopleKeys: '',
      contactRevs: 'id',
      companies: 'domain, nameLower, *words, industry, country',
      jobs: 'jobId, listId, searchRunId, state',
      mappings: 'signature',
      savedSearches: 'id, kind, updatedAt',
      searchRuns: 'id, savedSearchId, kind, startedAt',
      searchResults: '[runId+key], runId',
      facetCounts: '[listId+facet+value]',
      companyCounts: '[listId+bucket]',
      libraryCounts: '[table+facet+value]',
      listOps: '[listId+seq]',
    })
  }
}

/** A name for a library's contents, new each time a library starts from nothing. */
export function newEpoch(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
}

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
