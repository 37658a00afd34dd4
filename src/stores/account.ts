import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { AccountView } from '@shared/contract'
import type { AppError } from '@shared/result'
import { invoke, on } from '@/bridge'
import { useSettingsStore } from './settings'

/** The balance is refreshed on a timer too: `GET /account` is exempt from the rate limit. */
const refreshEveryMs = 60_000
const outOfReach = new Set(['network', 'timeout'])

export const useAccountStore = defineStore('account', () => {
  const account = ref<AccountView | null>(null)
  const error = ref<AppError | null>(null)
  const loading = ref(false)
  let timer: ReturnType<typeof setInterval> | null = null

  on('account/changed', (next) => {
    account.value = next
    error.value = null
  })
  /** Where calls go: a balance learnt elsewhere (the sandbox, another key) says nothing of here. */
  let endpoint: string | null = null
  on('settings/changed', (view) => {
    const next = `${view.mode}\n${view.baseUrl}\n${view.key.masked ?? ''}`
    if (endpoint !== null && endpoint !== next) {
      account.value = null
      error.value = null
    }
    endpoint = next
    void refresh()
  })

  const isLow = computed(() => {
    const threshold = useSettingsStore().view?.lowBalanceThreshold
    return account.value !== null && threshold !== undefined && account.value.creditsLeft < threshold
  })

  async function refresh(): Promise<void> {
    loading.value = true
    try {
      const result = await invoke('account/get')
      if (result.ok) {
        account.value = result.data
        error.value = null
      } else if (result.error.code !== 'cancelled') {
        // Out of reach, the last balance stays for the header's tooltip ("last balance … at …"); any
        // other failure (a refused key, another address) makes it meaningless.
        if (!outOfReach.has(result.error.code)) account.value = null
        error.value = result.error
      }
    } finally {
      loading.value = false
    }
  }

  function startAutoRefresh(): void {
    timer ??= setInterval(() => void refresh(), refreshEveryMs)
  }

  return { account, error, loading, isLow, refresh, startAutoRefresh }
})
