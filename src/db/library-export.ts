import { csvLine } from '@domain/export/csv'
import { xlsxWriter } from '@domain/export/xlsx'
import { contactBlockSize } from './contact-index'
import { exportRecordName, joinParts, mimeTypes, type ExportedFile, type ExportedPart } from './export-file'
import { writeExport, type ExportSink } from './export-sink'
import { contactBlockFrom, countContacts, storedRevisions } from './library-contacts'
import {
  companyExportColumns,
  contactExportColumns,
  libraryExportTitles,
  type LibraryExportRequest,
  type LibraryExportSearch,
  type LibraryShare,
} from './library-export-columns'
import { db as appDb, type LeadkeeperDb } from './schema'
import type { CompanyRecord, ContactRecord } from './records'
import { matchesWords, searchWords } from './words'

export type {
  LibraryExportRequest,
  LibraryExportSearch,
  LibraryShare,
  LibraryTable,
} from './library-export-columns'

/**
 * Writing the library's people or companies that a search shows (its words and facets) as CSV, JSON
 * or an Excel sheet, with the lists' writers, streamed from the stored records a page at a time: the
 * whole library is never held. People go newest first, as the library shows them; companies in name
 * order. Run by the export workers (`export-client.ts`), a CSV or JSON of people in parts.
 */

/**
 * Whether a record is one the search shows: each search word starts one of its words, each facet
 * holds, and a person is at the search's company domain when it names one.
 */
function matcher<T extends { words: string[] }>(search: LibraryExportSearch): (record: T) => boolean {
  const words = searchWords(search.prefix ?? '')
  const facets = Object.entries(search.facets ?? {}).filter(
    (entry): entry is [string, string[]] => Array.isArray(entry[1]) && entry[1].length > 0,
  )
  const domain = search.domain?.trim().toLowerCase()
  return (record) =>
    (!domain || (record as unknown as Partial<ContactRecord>).domainLower === domain) &&
    matchesWords(record.words ?? [], words) &&
    facets.every(([facet, values]) =>
      values.includes(String((record as unknown as Record<string, unknown>)[facet] ?? '')),
    )
}

/** People blocks read at a time: a thousand people. */
const blocksPerRead = Math.max(1, Math.round(1_000 / contactBlockSize))

/** The blocks `[from, to)` of a share of `blocks` people blocks; part 0 the newest. */
export function shareBlocks(
  blocks: number,
  share: LibraryShare = { at: 0, of: 1 },
): { from: number; to: number } {
  const from = share.of - 1 - share.at
  return { from: Math.floor((blocks * from) / share.of), to: Math.floor((blocks * (from + 1)) / share.of) }
}

/**
 * The people a search shows, newest first, of a share of the blocks if given: `onPage` gets them a
 * page at a time. The next blocks are asked for while a page is written, so the database reads as
 * this thread writes. The people stored meanwhile are not in it: the library as it was when it began.
 */
export async function eachContactPage(
  search: LibraryExportSearch,
  onPage: (people: ContactRecord[]) => void,
  share?: LibraryShare,
  pageSize = 5_000,
  database: LeadkeeperDb = appDb,
): Promise<void> {
  const stored = await storedRevisions(database)
  const { from, to } = shareBlocks(Math.ceil(stored.size / contactBlockSize), share)
  const matches = matcher<ContactRecord>(search)
  const read = (top: number) => {
    const numbers: number[] = []
    for (let number = top; number > top - blocksPerRead && number >= from; number--) numbers.push(number)
    return database.peopleBlocks.bulkGet(numbers)
  }
  let page: ContactRecord[] = []
  let top = to - 1
  let pending = top >= from ? read(top) : null
  while (pending) {
    const blocks = await pending
    top -= blocksPerRead
    pending = top >= from ? read(top) : null
    for (const stored of blocks) {
      if (!stored) continue
      const block = contactBlockFrom(stored)
      for (let at = block.contacts.length - 1; at >= 0; at--) {
        const person = block.contacts[at]
        if (person && matches(person)) page.push(person)
      }
    }
    if (page.length >= pageSize) {
      onPage(page)
      page = []
    }
  }
  if (page.length > 0) onPage(page)
}

/** The companies a search shows, in name order, a page at a time. */
export async function eachCompanyPage(
  search: LibraryExportSearch,
  onPage: (companies: CompanyRecord[]) => void,
  pageSize = 5_000,
  database: LeadkeeperDb = appDb,
): Promise<void> {
  const matches = matcher<CompanyRecord>({ ...search, domain: '' })
  let page: CompanyRecord[] = []
  await database.companies.orderBy('nameLower').each((company) => {
    if (!matches(company)) return
    page.push(company)
    if (page.length >= pageSize) {
      onPage(page)
      page = []
    }
  })
  if (page.length > 0) onPage(page)
}

/** Each page of the table's records the search shows, with the cells of each record. */
function eachPage(
  request: Pick<LibraryExportRequest, 'table' | 'search'>,
  onPage: (cells: string[][]) => void,
  share: LibraryShare | undefined,
  database: LeadkeeperDb,
): Promise<void> {
  if (request.table === 'contacts')
    return eachContactPage(
      request.search,
      (people) => onPage(people.map((person) => contactExportColumns.map((column) => column.value(person)))),
      share,
      undefined,
      database,
    )
  return eachCompanyPage(
    request.search,
    (companies) =>
      onPage(companies.map((company) => companyExportColumns.map((column) => column.value(company)))),
    undefined,
    database,
  )
}

function jsonRecord(titles: readonly string[], cells: readonly string[]): string {
  const record: Record<string, string> = {}
  titles.forEach((title, at) => (record[title] = cells[at]!))
  return JSON.stringify(record)
}

export interface LibraryExportOptions {
  onProgress?: (written: number) => void
  database?: LeadkeeperDb
}

/**
 * The records of a CSV or JSON export between its header or opening bracket and its end, of a share
 * of the people if given (companies are one part): CSV lines, or JSON records joined by ',\n'.
 */
export async function exportLibraryRows(
  request: LibraryExportRequest & { format: 'csv' | 'json' },
  share?: LibraryShare,
  options: LibraryExportOptions = {},
): Promise<ExportedPart> {
  const titles = libraryExportTitles(request.table)
  let rows = 0
  const write = (sink: ExportSink) =>
    eachPage(
      request,
      (page) => {
        const lines = page.map((cells) =>
          request.format === 'csv' ? csvLine(cells) : jsonRecord(titles, cells),
        )
        sink.write(request.format === 'csv' ? lines.join('') : (rows === 0 ? '' : ',\n') + lines.join(',\n'))
        rows += page.length
        options.onProgress?.(rows)
      },
      request.table === 'contacts' ? share : undefined,
      options.database ?? appDb,
    )
  const { blob } = await writeExport(mimeTypes[request.format], write)
  return { blob, rows }
}

/** The library's records a search shows as an Excel workbook, one stream. */
export async function exportLibraryWorkbook(
  request: LibraryExportRequest,
  options: LibraryExportOptions = {},
): Promise<ExportedFile> {
  const database = options.database ?? appDb
  const everything =
    !request.search.prefix?.trim() &&
    !(request.table === 'contacts' && request.search.domain?.trim()) &&
    Object.values(request.search.facets ?? {}).every((v) => !v?.length)
  const known = everything
    ? request.table === 'contacts'
      ? await countContacts(database)
      : await database.companies.count()
    : undefined
  let rows = 0
  const { blob, result: cut } = await writeExport(mimeTypes.xlsx, async (sink) => {
    const sheet = xlsxWriter(
      {
        sheetName: request.table === 'contacts' ? 'Contacts' : 'Companies',
        header: libraryExportTitles(request.table),
        ...(known !== undefined ? { rows: known } : {}),
      },
      (chunk) => sink.write(chunk),
    )
    await eachPage(
      request,
      (page) => {
        for (const cells of page) sheet.row(cells)
        rows += page.length
        options.onProgress?.(rows)
      },
      undefined,
      database,
    )
    return sheet.end().cut
  })
  return { blob, fileName: exportRecordName(request.table, 'xlsx'), rows, cut }
}

/** The whole file in process, where no worker runs it (unit tests): CSV and JSON in one part. */
export async function exportLibrary(
  request: LibraryExportRequest,
  options: LibraryExportOptions = {},
): Promise<ExportedFile> {
  if (request.format === 'xlsx') return exportLibraryWorkbook(request, options)
  const format = request.format
  const part = await exportLibraryRows({ ...request, format }, undefined, options)
  return joinParts(
    libraryExportTitles(request.table),
    format,
    [part],
    exportRecordName(request.table, format),
  )
}
