import { computed } from 'vue'
import { darkTheme, lightTheme, useThemeVars } from 'naive-ui'
import { isDark } from '../../ui/notify'
import { themeOverrides } from '../../ui/theme'
import type { TagTone } from '../../ui/grid-types'

const tones: TagTone[] = ['default', 'info', 'success', 'warning', 'error']
const capitalized = (tone: TagTone) => (tone === 'default' ? '' : tone[0]!.toUpperCase() + tone.slice(1))

/**
 * The look of Naive UI's small borderless tag (`<n-tag size="small" :bordered="false">`), as CSS
 * variables for the tags a grid draws itself (`--tag-color-<tone>`, `--tag-text-<tone>` and the
 * shape): the tag theme of the app's light or dark theme, with the app's overrides of its colours.
 */
export function useGridTagStyle() {
  const common = useThemeVars()
  return computed(() => {
    const vars: Record<string, string> = {
      ...(isDark.value ? darkTheme : lightTheme).Tag.self!(common.value),
      ...(themeOverrides(isDark.value).Tag as Record<string, string> | undefined),
    }
    const style: Record<string, string> = {
      '--tag-height': vars['heightSmall']!,
      '--tag-font-size': vars['fontSizeSmall']!,
      '--tag-padding': vars['padding']!,
      '--tag-radius': vars['borderRadius']!,
    }
    for (const tone of tones) {
      style[`--tag-color-${tone}`] = vars[`color${capitalized(tone)}`]!
      style[`--tag-text-${tone}`] = vars[`textColor${capitalized(tone)}`]!
    }
    return style
  })
}
