import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { ChannelInput, SettingsView } from '@shared/contract'
import type { AppError, Result } from '@shared/result'
import { invoke, on } from '@/bridge'

export const useSettingsStore = defineStore('settings', () => {
  const view = ref<SettingsView | null>(null)
  const loadError = ref<AppError | null>(null)
  const saving = ref(false)

  on('settings/changed', (next) => {
    view.value = next
  })

  async function load(): Promise<void> {
    const result = await invoke('settings/get')
    if (result.ok) {
      view.value = result.data
      loadError.value = null
    } else {
      loadError.value = result.error
    }
  }

  /** Returns the failure so the form can show it next to the field it concerns. */
  async function apply(pending: Promise<Result<SettingsView>>): Promise<AppError | null> {
    saving.value = true
    try {
      const result = await pending
      if (!result.ok) return result.error
      view.value = result.data
      return null
    } finally {
      saving.value = false
    }
  }

  const update = (patch: ChannelInput<'settings/update'>) => apply(invoke('settings/update', patch))
  const setKey = (input: ChannelInput<'settings/setKey'>) => apply(invoke('settings/setKey', input))
  const clearKey = () => apply(invoke('settings/clearKey'))

  return { view, loadError, saving, load, update, setKey, clearKey }
})
