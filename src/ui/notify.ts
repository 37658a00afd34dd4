import { h, ref } from 'vue'
import type { AppError } from '@shared/result'
import type { DiscreteApi } from './discrete'

/**
 * One way to tell the user something, usable from stores as well as components. It follows the
 * app's theme, which App.vue keeps in `isDark`.
 */
export const isDark = ref(false)

/**
 * Naive UI's discrete API and its providers are not part of the first screen's code (the startup
 * bench's initial JS): their code loads apart, and the API is made when first used.
 */
const loadDiscrete = () => import('./discrete')
let discrete: Promise<DiscreteApi> | null = null

function api(): Promise<DiscreteApi> {
  discrete ??= loadDiscrete().then(
    ({ discreteApi }) => discreteApi(isDark),
    (error: unknown) => {
      // A load that failed (the web host out of reach) is tried again by the next notice.
      discrete = null
      throw error
    },
  )
  return discrete
}

/** Fetches the notices' code ahead, with the pages' (main.ts): a notice shows even once the web host is out of reach. */
export function preloadNotices(): void {
  void loadDiscrete().catch(() => undefined)
}

/** A path breaks anywhere rather than running out of the notice. */
const detailStyle = { display: 'block', wordBreak: 'break-all', fontSize: '12px', userSelect: 'text' }

export const notify = {
  success: (text: string) => void api().then(({ message }) => message.success(text)),
  info: (text: string) => void api().then(({ message }) => message.info(text)),
  warning: (text: string) => void api().then(({ message }) => message.warning(text, { duration: 6000 })),
  error: (error: AppError | string) => {
    // Also in the console, where a notice gone after its eight seconds can still be read.
    console.error(typeof error === 'string' ? error : error.message)
    void api().then(({ notification }) =>
      notification.error({
        title: 'Something needs your attention',
        content: typeof error === 'string' ? error : error.message,
        duration: 8000,
      }),
    )
  },
  /**
   * A notice that stays until closed, for what the user may have to find on disk: `detail` (a path)
   * shows on a line of its own, to be read and copied at leisure. Also in the console, as an error is.
   */
  lasting: (title: string, content: string, detail?: string) => {
    console.warn([`${title}:`, content, detail].filter(Boolean).join(' '))
    const body =
      detail === undefined
        ? content
        : () => [h('p', { style: { margin: '0 0 6px' } }, content), h('code', { style: detailStyle }, detail)]
    void api().then(({ notification }) => notification.warning({ title, content: body, closable: true }))
  },
  confirm: async (options: {
    title: string
    content: string
    positiveText: string
    negativeText?: string
  }): Promise<boolean> => {
    const { dialog } = await api()
    return new Promise<boolean>((resolve) => {
      dialog.warning({
        ...options,
        negativeText: options.negativeText ?? 'Cancel',
        onPositiveClick: () => resolve(true),
        onNegativeClick: () => resolve(false),
        onClose: () => resolve(false),
        onMaskClick: () => resolve(false),
      })
    })
  },
}
