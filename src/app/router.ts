import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router'

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

const routes: RouteRecordRaw[] = [
  { path: '/', name: 'home', component: () => import('@/features/home/HomePage.vue') },
  { path: '/lists', name: 'lists', component: () => import('@/features/lists/ListsPage.vue') },
  {
    path: '/lists/:listId',
    name: 'list',
    component: () => import('@/features/lists/ListDetailPage.vue'),
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
  { path: '/settings', name: 'settings', component: () => import('@/features/settings/SettingsPage.vue') },
  { path: '/:pathMatch(.*)*', redirect: '/' },
]

/** Hash history: the same URLs work from Electron's file:// page and from the web host. */
export const router = createRouter({ history: createWebHashHistory(), routes })
