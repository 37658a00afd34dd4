import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router'

export interface Section {
  name: string
  label: string
  /** Sections announced in the sidebar before they exist are shown disabled. */
  available: boolean
}

export const sections: Section[] = [
  { name: 'home', label: 'Start', available: true },
  { name: 'lists', label: 'Lists', available: false },
  { name: 'lead-search', label: 'Lead search', available: false },
  { name: 'company-search', label: 'Company search', available: false },
  { name: 'lookups', label: 'Profile lookups', available: false },
  { name: 'library', label: 'Library', available: false },
  { name: 'settings', label: 'Settings', available: true },
]

const routes: RouteRecordRaw[] = [
  { path: '/', name: 'home', component: () => import('@/features/home/HomePage.vue') },
  { path: '/settings', name: 'settings', component: () => import('@/features/settings/SettingsPage.vue') },
  { path: '/:pathMatch(.*)*', redirect: '/' },
]

/** Hash history: the same URLs work from Electron's file:// page and from the web host. */
export const router = createRouter({ history: createWebHashHistory(), routes })
