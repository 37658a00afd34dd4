import { computed, onMounted, ref, type ComputedRef, type Ref } from 'vue'
import { useRoute } from 'vue-router'
import { notify } from '@/ui/notify'
import type { SavedSearch, SearchRun } from '@/db/records'
import { useSearchesStore } from '@/stores/searches'
import { describeFilters } from './describe'
import { draftFromFilters, type FilterDraft, type SearchKind } from './filters'
import { openingOf } from './opening'
import type { FilterField } from './taxonomies'

/** What a search page of one kind says about itself; the scaffold does the rest. */
export interface SearchPageConfig<S extends { filters: Record<string, unknown> }> {
  kind: SearchKind
  fields: readonly FilterField[]
  /** The search the page's controls describe: the filters drafted, with the page's own options. */
  request(draft: FilterDraft): S
  /** Sets the page's own options (limit, what to enrich…) from a search opened or loaded. */
  applyOptions(search: S): void
  /** Shows a past run of this kind (from the history, or the address). */
  open(run: SearchRun): void
  /** Runs the search the page describes now. */
  run(): Promise<void>
  /** Whether a run is on the page already: then the address's opening is not applied. */
  showing(): boolean
}

export interface SearchPage<S> {
  draft: Ref<FilterDraft>
  activeSaved: Ref<SavedSearch | null>
  search: ComputedRef<S>
  /** The saved search's name, or the filters in a few words. */
  label: ComputedRef<string>
  apply(search: S): void
  save(name: string): Promise<void>
  load(saved: SavedSearch): void
  runSaved(saved: SavedSearch): Promise<void>
}

/** The saved searches' side of a page, for its history: the one in use, save, load and run. */
export type SavedSearches = Pick<SearchPage<unknown>, 'activeSaved' | 'save' | 'load' | 'runSaved'>

/**
 * What the lead and the company search pages share: the filter draft, the saved search in use, the
 * history's save, load and run, and what the address opens (a past run or a saved search).
 */
export function useSearchPage<S extends { filters: Record<string, unknown> }>(
  config: SearchPageConfig<S>,
): SearchPage<S> {
  const store = useSearchesStore()
  const route = useRoute()
  const draft = ref<FilterDraft>({})
  const activeSaved = ref<SavedSearch | null>(null)
  const search = computed(() => config.request(draft.value))
  const label = computed(() => activeSaved.value?.name ?? describeFilters(search.value.filters))

  function apply(request: S): void {
    draft.value = draftFromFilters(config.fields, request.filters)
    config.applyOptions(request)
  }

  async function save(name: string): Promise<void> {
    activeSaved.value = await store.save(config.kind, name, { search: search.value })
    notify.success(`Saved the search "${name}".`)
  }

  function load(saved: SavedSearch): void {
    activeSaved.value = saved
    apply(saved.request['search'] as S)
  }

  async function runSaved(saved: SavedSearch): Promise<void> {
    load(saved)
    await config.run()
  }

  onMounted(async () => {
    await store.load()
    if (config.showing()) return
    const opening = openingOf(route.query, config.kind, store.runs, store.saved)
    if (opening.run) config.open(opening.run)
    if (opening.saved) load(opening.saved)
  })

  return { draft, activeSaved, search, label, apply, save, load, runSaved }
}
