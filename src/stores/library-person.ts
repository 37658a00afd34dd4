import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import { notify } from '@/ui/notify'
import { libraryOf } from '@/db/library-client'
import { contactAnswers } from '@/db/library-shape'
import { searchesOf, type PersonRow, type SearchThatFound } from '@/db/library-pages'
import type { ContactRecord } from '@/db/records'

/**
 * A person's page: their record, the list rows their answers are on and the searches that found
 * them, from IndexedDB alone. The rows are found in the library worker (it reads lists' company
 * columns), the rest from the record.
 */
export const useLibraryPersonStore = defineStore('libraryPerson', () => {
  const id = ref<string | null>(null)
  /** undefined while it is read; null when the library holds nobody by this id. */
  const person = shallowRef<ContactRecord | null | undefined>(undefined)
  /** null while they are looked for. */
  const rows = shallowRef<PersonRow[] | null>(null)
  const searches = shallowRef<SearchThatFound[] | null>(null)
  /** When each kind of data was last answered for them. */
  const answers = computed(() => (person.value ? contactAnswers(person.value) : {}))
  let opening = 0

  async function open(next: string): Promise<void> {
    const run = ++opening
    id.value = next
    person.value = undefined
    rows.value = null
    searches.value = null
    try {
      const found = (await libraryOf().contactById(next)) ?? null
      if (run !== opening) return
      person.value = found
      if (!found) return
      const [inLists, bySearches] = await Promise.all([
        libraryOf().personRows(found.id),
        searchesOf(found.sources),
      ])
      if (run !== opening) return
      rows.value = inLists
      searches.value = bySearches
    } catch (error) {
      if (run === opening) notify.error(`This person could not be read: ${String(error)}`)
    }
  }

  return { id, person, answers, rows, searches, open }
})
