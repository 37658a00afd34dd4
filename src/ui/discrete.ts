import { createDiscreteApi, darkTheme } from 'naive-ui'
import { computed, type Ref } from 'vue'
import { themeOverrides } from './theme'

export type DiscreteApi = ReturnType<typeof discreteApi>

/** Naive UI's messages, notifications and dialogs on an app of their own, in the app's theme. */
export function discreteApi(isDark: Readonly<Ref<boolean>>) {
  return createDiscreteApi(['message', 'notification', 'dialog'], {
    configProviderProps: computed(() => ({
      // No theme is Naive UI's light one.
      theme: isDark.value ? darkTheme : null,
      themeOverrides: themeOverrides(isDark.value),
    })),
  })
}
