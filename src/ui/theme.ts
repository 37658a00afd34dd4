import type { GlobalThemeOverrides } from 'naive-ui'

/**
 * The theme's colours where Naive UI's defaults fall short of WCAG AA's 4.5:1 for text (checked by
 * axe-core in the e2e suite): secondary text, the status colours of tags and text, and white on the
 * primary green. Each is the default's hue made darker (light) or brighter (dark) until it passes.
 */
const light: GlobalThemeOverrides = {
  common: {
    primaryColor: '#128547',
    primaryColorHover: '#16954f',
    primaryColorPressed: '#0c6b39',
    primaryColorSuppl: '#16954f',
    textColor3: '#63686e',
  },
  Tag: {
    textColorInfo: '#175fb3',
    textColorSuccess: '#0f7240',
    textColorWarning: '#8a5300',
    textColorError: '#b01e3c',
  },
  Empty: { textColor: '#63686e' },
  Form: { feedbackTextColorWarning: '#8a5300', feedbackTextColorError: '#b01e3c' },
  Typography: {
    textColorInfo: '#175fb3',
    textColorSuccess: '#0f7240',
    textColorWarning: '#8a5300',
    textColorError: '#b01e3c',
  },
}

const dark: GlobalThemeOverrides = {
  common: { textColor3: 'rgba(255, 255, 255, 0.55)' },
  Empty: { textColor: 'rgba(255, 255, 255, 0.55)' },
}

export const themeOverrides = (isDark: boolean): GlobalThemeOverrides => (isDark ? dark : light)
