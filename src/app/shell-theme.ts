/**
 * The shell's colours: Naive UI's own for its layout, menu and tooltip under the app's theme
 * overrides (`ui/theme.ts`), pinned by a unit test against naive-ui's themes. The shell draws itself
 * before Naive UI's code is loaded, and looks as it did when Naive UI's layout and menu drew it.
 */
export interface ShellColors {
  body: string
  text: string
  sider: string
  header: string
  divider: string
  itemText: string
  itemIcon: string
  itemHover: string
  itemActive: string
  primary: string
  primaryHover: string
  toggleBar: string
  toggleBarHover: string
  tip: string
  tipText: string
  tipShadow: string
}

export const shellColors: Record<'light' | 'dark', ShellColors> = {
  light: {
    body: '#fff',
    text: 'rgb(51, 54, 57)',
    sider: '#fff',
    header: '#fff',
    divider: 'rgb(239, 239, 245)',
    itemText: 'rgb(51, 54, 57)',
    itemIcon: 'rgb(31, 34, 37)',
    itemHover: 'rgb(243, 243, 245)',
    itemActive: 'rgba(18, 133, 71, 0.1)',
    primary: '#128547',
    primaryHover: '#16954f',
    toggleBar: 'rgba(191, 191, 191, 1)',
    toggleBarHover: 'rgba(153, 153, 153, 1)',
    tip: 'rgba(38, 38, 38, 1)',
    tipText: '#FFF',
    tipShadow:
      '0 3px 6px -4px rgba(0, 0, 0, .12), 0 6px 16px 0 rgba(0, 0, 0, .08), 0 9px 28px 8px rgba(0, 0, 0, .05)',
  },
  dark: {
    body: 'rgb(16, 16, 20)',
    text: 'rgba(255, 255, 255, 0.82)',
    sider: 'rgb(24, 24, 28)',
    header: 'rgb(24, 24, 28)',
    divider: 'rgba(255, 255, 255, 0.09)',
    itemText: 'rgba(255, 255, 255, 0.82)',
    itemIcon: 'rgba(255, 255, 255, 0.9)',
    itemHover: 'rgba(255, 255, 255, 0.09)',
    itemActive: 'rgba(99, 226, 183, 0.15)',
    primary: '#63e2b7',
    primaryHover: '#7fe7c4',
    toggleBar: 'rgba(64, 64, 67, 1)',
    toggleBarHover: 'rgba(88, 88, 91, 1)',
    tip: 'rgb(72, 72, 78)',
    tipText: 'rgba(255, 255, 255, 0.82)',
    tipShadow:
      '0 3px 6px -4px rgba(0, 0, 0, .24), 0 6px 12px 0 rgba(0, 0, 0, .16), 0 9px 18px 8px rgba(0, 0, 0, .10)',
  },
}

/** The colours as CSS custom properties (`--shell-item-hover`, …) for the shell's root element. */
export function shellColorVars(dark: boolean): Record<string, string> {
  const colors = shellColors[dark ? 'dark' : 'light']
  return Object.fromEntries(
    Object.entries(colors).map(([name, value]) => [
      `--shell-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`,
      value,
    ]),
  )
}
