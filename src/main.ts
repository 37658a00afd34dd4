import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './app/App.vue'
import { preloadPages, router } from './app/router'
import { preloadNotices } from './ui/notify'
import { catchEarlyDrops } from './ui/early-drop'

catchEarlyDrops()
createApp(App).use(createPinia()).use(router).mount('#app')
void router.isReady().then(() =>
  setTimeout(() => {
    preloadPages()
    preloadNotices()
  }, 1_000),
)
