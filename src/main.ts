import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './app/App.vue'
import { preloadPages, router } from './app/router'

const root = document.querySelector<HTMLElement>('#app')!
const shell = window.leadkeeperShell?.originMove

/** The data an earlier desktop version kept elsewhere, brought here first: its code loaded only there. */
async function oldDataHere(): Promise<void> {
  if (!shell) return
  const { bringOldData } = await import('./app/origin-move')
  await bringOldData(shell, root)
}

// The database is opened only once the data an earlier desktop version kept elsewhere is here.
void oldDataHere().then(() => {
  createApp(App).use(createPinia()).use(router).mount(root)
  void router.isReady().then(() => setTimeout(preloadPages, 1_000))
})
