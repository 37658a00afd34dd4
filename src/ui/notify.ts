import { createDiscreteApi, darkTheme, lightTheme } from 'naive-ui'
import { computed, ref } from 'vue'
import type { AppError } from '@shared/result'
import { themeOverrides } from './theme'

/**
 * One way to tell the user something, usable from stores as well as components. It follows the
 * app's theme, which App.vue keeps in `isDark`.
 */
export const isDark = ref(false)

const { message, notification, dialog } = createDiscreteApi(['message', 'notification', 'dialog'], {
  configProviderProps: computed(() => ({
    theme: isDark.value ? darkTheme : lightTheme,
    themeOverrides: themeOverrides(isDark.value),
  })),
})

export const notify = {
  success: (text: string) => message.success(text),
  info: (text: string) => message.info(text),
  warning: (text: string) => message.warning(text, { duration: 6000 }),
  error: (error: AppError | string) =>
    notification.error({
      title: 'Something needs your attention',
      content: typeof error === 'string' ? error : error.message,
      duration: 8000,
    }),
  confirm: (options: { title: string; content: string; positiveText: string; negativeText?: string }) =>
    new Promise<boolean>((resolve) => {
      dialog.warning({
        ...options,
        negativeText: options.negativeText ?? 'Cancel',
        onPositiveClick: () => resolve(true),
        onNegativeClick: () => resolve(false),
        onClose: () => resolve(false),
        onMaskClick: () => resolve(false),
      })
    }),
}
