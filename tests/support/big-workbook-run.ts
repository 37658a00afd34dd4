import { spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bigWorkbook } from './workbooks'

/**
 * A workbook of `rows` rows (`bigWorkbook`) written to a folder of its own, and `child` run on its
 * path by a Node of a 1 GB heap: what it printed and how it ended. The folder goes after.
 */
export function runOnBigWorkbook(
  child: string,
  rows: number,
  env: NodeJS.ProcessEnv = process.env,
): SpawnSyncReturns<string> {
  const dir = mkdtempSync(join(tmpdir(), 'lk-big-xlsx-'))
  try {
    const path = join(dir, 'people.xlsx')
    writeFileSync(path, bigWorkbook(rows))
    return spawnSync(process.execPath, ['--max-old-space-size=1024', '--import', 'tsx', child, path], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
      env,
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
