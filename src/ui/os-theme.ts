import { readonly, ref, type Ref } from 'vue'

const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null
const dark = ref(query?.matches ?? false)
query?.addEventListener('change', (event) => (dark.value = event.matches))

/**
 * Whether the system asks for dark colours, as Naive UI's `useOsTheme` tells it, without its code:
 * the shell takes its colours from it before Naive UI is loaded, and the pages' theme from the same.
 */
export const osDark: Readonly<Ref<boolean>> = readonly(dark)
