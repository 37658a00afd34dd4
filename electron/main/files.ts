import type { BrowserWindow, Dialog } from 'electron'
import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'

/** Larger files are refused before they are read, with a message rather than an exhausted renderer. */
export const maxImportBytes = 1024 * 1024 * 1024

/** Main opens the dialog itself: the renderer never names a path, it only receives what the user chose. */
export async function pickCsv(
  dialog: Pick<Dialog, 'showOpenDialog'>,
  window: BrowserWindow | null,
): Promise<{ name: string; data: Uint8Array } | null> {
  const options = {
    title: 'Import a list',
    properties: ['openFile' as const],
    filters: [
      { name: 'Lists (CSV, TSV, TXT, Excel)', extensions: ['csv', 'tsv', 'txt', 'xlsx', 'xlsm'] },
      { name: 'All files', extensions: ['*'] },
    ],
  }
  const choice = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options)
  const path = choice.filePaths[0]
  if (choice.canceled || !path) return null
  const { size } = await stat(path)
  if (size > maxImportBytes) {
    throw new Error(`${basename(path)} is larger than 1 GB; split it into smaller files.`)
  }
  return { name: basename(path), data: new Uint8Array(await readFile(path)) }
}
