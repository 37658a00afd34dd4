import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { AccountView } from '@shared/contract'
import type { AppError } from '@shared/result'
import { invoke, on } from '@/bridge'
import { useSettingsStore } from './settings'

/** The balance is refreshed on a timer too: `GET /account` is exempt from the rate limit. */
const refreshEveryMs = 60_000

export const useAccountStore = defineStore('account', () => {
  const account = ref<AccountView | null>(null)
  const error = ref<AppError | null>(null)
  const loading = ref(false)
  let timer: ReturnType<typeof setInterval> | null = null

  on('account/changed', (next) => {
    account.value = next
    error.value = null
  })
  on('settings/changed', () => void refresh())

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
      } else {
        account.value = null
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
