import { describe, expect, it } from 'vitest'
import { darkTheme, lightTheme } from 'naive-ui'
import { shellColors, shellColorVars } from '@/app/shell-theme'
import { themeOverrides } from '@/ui/theme'

/** What Naive UI's layout, menu and tooltip draw with, under the app's overrides. */
function naiveColors(dark: boolean) {
  const theme = dark ? darkTheme : lightTheme
  const common = { ...theme.common, ...themeOverrides(dark).common } as typeof theme.common
  const layout = theme.Layout.self!(common)
  const menu = theme.Menu.self!(common)
  const tooltip = theme.Tooltip.self!(common)
  return {
    body: layout.color,
    text: layout.textColor,
    sider: layout.siderColor,
    header: layout.headerColor,
    divider: layout.siderBorderColor,
    itemText: menu.itemTextColor,
    itemIcon: menu.itemIconColor,
    itemHover: menu.itemColorHover,
    itemActive: menu.itemColorActive,
    primary: menu.itemTextColorActive,
    primaryHover: common.primaryColorHover,
    toggleBar: layout.siderToggleBarColor,
    toggleBarHover: layout.siderToggleBarColorHover,
    tip: tooltip.color,
    tipText: tooltip.textColor,
    tipShadow: tooltip.boxShadow,
  }
}

describe('the shell drawn with its own CSS', () => {
  it.each([false, true])('keeps Naive UI colours of its layout and menu (dark: %s)', (dark) => {
    expect(shellColors[dark ? 'dark' : 'light']).toEqual(naiveColors(dark))
    // The same colour for the header's border as for the sidebar's, as Naive UI's layout has it.
    expect(
      (dark ? darkTheme : lightTheme).Layout.self!({
        ...(dark ? darkTheme : lightTheme).common,
        ...themeOverrides(dark).common,
      } as typeof lightTheme.common).headerBorderColor,
    ).toBe(shellColors[dark ? 'dark' : 'light'].divider)
  })

  it('names each colour as a CSS custom property', () => {
    expect(shellColorVars(false)).toMatchObject({
      '--shell-item-hover': 'rgb(243, 243, 245)',
      '--shell-toggle-bar-hover': 'rgba(153, 153, 153, 1)',
      '--shell-tip-shadow': expect.stringContaining('rgba(0, 0, 0, .12)'),
    })
    expect(shellColorVars(true)['--shell-primary']).toBe('#63e2b7')
  })
})
