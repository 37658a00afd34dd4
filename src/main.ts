import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './app/App.vue'
import { preloadPages, router } from './app/router'

createApp(App).use(createPinia()).use(router).mount('#app')
void router.isReady().then(() => setTimeout(preloadPages, 1_000))
