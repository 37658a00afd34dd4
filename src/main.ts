import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './app/App.vue'
import { bringOldData } from './app/origin-move'
import { preloadPages, router } from './app/router'

const root = document.querySelector<HTMLElement>('#app')!
// The database is opened only once the data an earlier desktop version kept elsewhere is here.
void bringOldData(window.leadkeeperShell?.originMove, root).then(() => {
  createApp(App).use(createPinia()).use(router).mount(root)
  void router.isReady().then(() => setTimeout(preloadPages, 1_000))
})
