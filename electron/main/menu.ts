import type { MenuItemConstructorOptions } from 'electron'

/** The usual menus with their platform shortcuts, through Electron's roles. */
export function menuTemplate(platform: NodeJS.Platform, isDev: boolean): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin'
  return [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(isDev ? [{ role: 'toggleDevTools' as const }] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ]
}
