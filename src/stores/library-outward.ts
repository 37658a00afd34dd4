import { defineStore } from 'pinia'
import { ref } from 'vue'
import { notify } from '@/ui/notify'
import { downloadFile, type ExportFormat } from '@/db/export-file'
import { libraryOf } from '@/db/library-client'
import {
  companyForgetPlan,
  forgetCompany,
  type CompanyForgetPlan,
  type ContactForgetPlan,
  type ForgetOutcome,
} from '@/db/library-forget'
import type { ListRecord } from '@/db/records'
import type { LibraryExportRequest } from '@/db/library-export-columns'
import { exportLibraryInWorkers } from '@/workers/export-client'
import { useLibraryStore } from './library'

export type { CompanyForgetPlan, ContactForgetPlan, ForgetOutcome }

/** What a page shows of the library: a table and its search. */
export type Shown = Pick<LibraryExportRequest, 'table' | 'search'>

/** 'People at Globex' → 'People at Globex.csv', without characters file systems refuse. */
const exportNamed = (name: string, format: ExportFormat) =>
  `${
    [...name]
      .map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? '_' : char))
      .join('')
      .trim() || 'Library'
  }.${format}`

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * What leaves the library (`library.ts` holds what it shows): the records the search shows exported
 * or made into a list, and a person or a company forgotten.
 */
export const useLibraryOutwardStore = defineStore('libraryOutward', () => {
  /** Records written so far by the export under way; null when none is. */
  const exporting = ref<number | null>(null)
  const makingList = ref(false)
  const forgetting = ref(false)

  /** The tab the grid shows and its search, as it is now. */
  function shown(): Shown {
    const library = useLibraryStore()
    const table = library.shownTab
    const facets = table === 'contacts' ? library.contactFacets : library.companyFacets
    return { table, search: { prefix: library.prefix, facets } }
  }

  /**
   * The people or companies shown, to a file the browser downloads: the library's tab by default,
   * or what another page shows (a company's people), under a name of its own.
   */
  async function exportShown(format: ExportFormat, of: Shown = shown(), name?: string): Promise<void> {
    if (exporting.value !== null) return
    exporting.value = 0
    try {
      const made = await exportLibraryInWorkers({
        ...of,
        format,
        onProgress: (written) => (exporting.value = written),
      })
      const file = name ? { ...made, fileName: exportNamed(name, format) } : made
      downloadFile(file)
      notify.success(`Exported ${file.rows.toLocaleString()} records to ${file.fileName}.`)
      if (file.cut > 0)
        notify.warning(
          `${file.cut.toLocaleString()} cells were longer than an Excel cell holds (32,767 characters) and were cut in ${file.fileName}; the CSV export keeps them whole.`,
        )
    } catch (error) {
      notify.error(`The export failed: ${errorText(error)}`)
    } finally {
      exporting.value = null
    }
  }

  /** A list of the people shown, ready to enrich further; null when it could not be made (said why). */
  async function newListFromShown(name: string, of: Shown = shown()): Promise<ListRecord | null> {
    const { table, search } = of
    if (table !== 'contacts' || makingList.value) return null
    makingList.value = true
    try {
      const list = await libraryOf().createListFromContacts(name, search)
      notify.success(`Made the list "${list.name}" of ${list.rowCount.toLocaleString()} people.`)
      return list
    } catch (error) {
      notify.error(`The list could not be made: ${errorText(error)}`)
      return null
    } finally {
      makingList.value = false
    }
  }

  /** What forgetting a person would clear, shown before the user confirms. */
  function contactPlan(id: string): Promise<ContactForgetPlan> {
    return libraryOf().contactForgetPlan(id)
  }

  function companyPlan(domain: string): Promise<CompanyForgetPlan> {
    return companyForgetPlan(domain)
  }

  async function forget(run: () => Promise<ForgetOutcome>, what: string): Promise<boolean> {
    if (forgetting.value) return false
    forgetting.value = true
    try {
      const outcome = await run()
      if (!outcome.forgotten) {
        notify.warning(`${what} was not in the library any more: nothing was changed.`)
        return false
      }
      const rows = outcome.rows === 1 ? '1 list row' : `${outcome.rows.toLocaleString()} list rows`
      notify.success(
        outcome.rows > 0 ? `Forgot ${what}, and cleared their answer from ${rows}.` : `Forgot ${what}.`,
      )
      return true
    } catch (error) {
      notify.error(`${what} could not be forgotten: ${errorText(error)}`)
      return false
    } finally {
      forgetting.value = false
    }
  }

  /** Forgets a person; true once done. */
  function forgetContact(id: string, name: string): Promise<boolean> {
    return forget(() => libraryOf().forgetContact(id), name)
  }

  function forgetCompanyOf(domain: string, name: string): Promise<boolean> {
    return forget(() => forgetCompany(domain), name)
  }

  return {
    exporting,
    makingList,
    forgetting,
    exportShown,
    newListFromShown,
    contactPlan,
    companyPlan,
    forgetContact,
    forgetCompany: forgetCompanyOf,
  }
})
