import { START_LOCATION, createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router'
import { firstPaint } from './first-paint'

export interface Section {
  name: string
  label: string
  /** Sections announced in the sidebar before they exist are shown disabled. */
  available: boolean
}

export const sections: Section[] = [
  { name: 'home', label: 'Start', available: true },
  { name: 'lists', label: 'Lists', available: true },
  { name: 'lead-search', label: 'Lead search', available: true },
  { name: 'company-search', label: 'Company search', available: true },
  { name: 'lookups', label: 'Profile lookups', available: true },
  { name: 'library', label: 'Library', available: true },
  { name: 'settings', label: 'Settings', available: true },
]

const listPage = () => import('@/features/lists/ListDetailPage.vue')

/**
 * Loads the list page's code once the first page is idle: a list opens without fetching and
 * evaluating its page's code first.
 */
export function prefetchPages(): void {
  if (typeof requestIdleCallback !== 'function') return
  requestIdleCallback(() => void listPage().catch(() => undefined), { timeout: 5_000 })
}

const routes: RouteRecordRaw[] = [
  { path: '/', name: 'home', component: () => import('@/features/home/HomePage.vue') },
  { path: '/lists', name: 'lists', component: () => import('@/features/lists/ListsPage.vue') },
  {
    path: '/lists/:listId',
    name: 'list',
    component: listPage,
    props: true,
    meta: { section: 'lists' },
  },
  {
    path: '/lead-search',
    name: 'lead-search',
    component: () => import('@/features/lead-search/LeadSearchPage.vue'),
  },
  {
    path: '/company-search',
    name: 'company-search',
    component: () => import('@/features/company-search/CompanySearchPage.vue'),
  },
  { path: '/lookups', name: 'lookups', component: () => import('@/features/lookups/LookupsPage.vue') },
  { path: '/library', name: 'library', component: () => import('@/features/library/LibraryPage.vue') },
  {
    path: '/library/companies/:domain',
    name: 'company',
    component: () => import('@/features/library/LibraryCompanyPage.vue'),
    props: true,
    meta: { section: 'library' },
  },
  {
    path: '/library/people/:personId',
    name: 'person',
    component: () => import('@/features/library/LibraryPersonPage.vue'),
    props: true,
    meta: { section: 'library' },
  },
  { path: '/settings', name: 'settings', component: () => import('@/features/settings/SettingsPage.vue') },
  { path: '/:pathMatch(.*)*', redirect: '/' },
]

/** Hash history: the same URLs work from Electron's app://bundle page and from the web host. */
export const router = createRouter({ history: createWebHashHistory(), routes })
// The first page's code is fetched once the shell is on screen, not while it is drawn.
router.beforeEach(async (_to, from) => {
  if (from === START_LOCATION) await firstPaint
})

/**
 * Every page's code, fetched once the first page is up and the app idle: moving between pages then
 * needs nothing from the network (a web host behind a connection that dropped, or the browser told
 * it is offline), and the first visit of a page does not wait for its chunk.
 */
export function preloadPages(): void {
  for (const route of routes) {
    const load = route.component
    if (typeof load === 'function') void (load as () => Promise<unknown>)().catch(() => undefined)
  }
}
