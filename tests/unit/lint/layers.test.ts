// The layers' rules fail `npm run lint` when broken: each forbidden import or global below is refused
// by the project's own ESLint configuration, and the allowed ones beside them are not.
import { join } from 'node:path'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../../..')
let eslint: ESLint

beforeAll(() => {
  eslint = new ESLint({ cwd: root })
})

/** The rule ids and messages ESLint reports for `code` as if it were the file at `path`. */
async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) })
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`)
}

describe('imports run one way between the layers', () => {
  it.each([
    [
      'electron/shared/probe.ts',
      "import type { JobManager } from '../engine/jobs/manager'\nexport type X = JobManager\n",
    ],
    ['electron/domain/probe.ts', "import { backend } from '../backend'\nexport const x = backend\n"],
    [
      'electron/engine/probe.ts',
      "import { handlers } from '../backend/dispatch'\nexport const x = handlers\n",
    ],
    [
      'electron/sandbox/probe.ts',
      "import { JobManager } from '../engine/jobs/manager'\nexport const x = JobManager\n",
    ],
    ['src/db/probe.ts', "import { useJobsStore } from '@/stores/jobs'\nexport const x = useJobsStore\n"],
    [
      'src/stores/probe.ts',
      "import { pickListFile } from '@/features/lists/import/pick-list-file'\nexport const x = pickListFile\n",
    ],
    ['src/features/lists/probe.ts', "import { invoke } from '@/bridge'\nexport const x = invoke\n"],
    ['src/components/probe.ts', "import { router } from '@/app/router'\nexport const x = router\n"],
    [
      'src/features/probe.ts',
      "import { JobManager } from '../../electron/engine/jobs/manager'\nexport const x = JobManager\n",
    ],
    ['src/stores/probe.ts', "export const load = () => import('@/features/home/HomePage.vue')\n"],
    ['electron/preload/probe.ts', "import { db } from '../../src/db/schema'\nexport const x = db\n"],
  ])('%s: %s is refused', async (path, code) => {
    const found = await problems(path, code)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(/^leadkeeper\/layers: .+ may not import /)
  })

  it.each([
    [
      'src/features/lists/probe.ts',
      "import { useJobsStore } from '@/stores/jobs'\nexport const x = useJobsStore\n",
    ],
    ['src/stores/probe.ts', "import { db } from '@/db/schema'\nexport const x = db\n"],
    ['electron/engine/probe.ts', "import { dataKinds } from '../domain/kinds'\nexport const x = dataKinds\n"],
    ['electron/shared/probe.ts', "import { dataKinds } from '@domain/kinds'\nexport const x = dataKinds\n"],
    ['electron/cli/probe.ts', "import { startSandbox } from '../sandbox'\nexport const x = startSandbox\n"],
    ['tests/unit/probe.ts', "import { backend } from '../../electron/backend'\nexport const x = backend\n"],
    [
      'electron/preload/probe.ts',
      "import { channelNameList } from '../shared/channels'\nexport const x = channelNameList\n",
    ],
  ])('%s: %s is allowed', async (path, code) => {
    expect(await problems(path, code)).toEqual([])
  })

  // Features name the database's records, but read and write IndexedDB through the stores.
  it.each([
    ['src/features/lists/probe.ts', "import { db } from '@/db/schema'\nexport const x = db\n"],
    [
      'src/features/lists/probe.ts',
      "import { deleteList, type NewList } from '@/db/lists'\nexport const x: NewList | typeof deleteList = deleteList\n",
    ],
  ])('%s: a value from the database, %s, is refused', async (path, code) => {
    const found = await problems(path, code)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(/^leadkeeper\/layers: .+ may import only types from src\/db /)
  })

  it.each([
    [
      'src/features/lists/probe.ts',
      "import type { ListRecord } from '@/db/records'\nexport type X = ListRecord\n",
    ],
    ['src/features/lists/probe.ts', "import { type NewList } from '@/db/lists'\nexport type X = NewList\n"],
  ])('%s: types from the database, %s, are allowed', async (path, code) => {
    expect(await problems(path, code)).toEqual([])
  })
})

describe('each tree has the host it runs on', () => {
  it.each([
    [
      'electron/domain/probe.ts',
      "import { readFileSync } from 'node:fs'\nexport const x = readFileSync\n",
      /layers: .+ may not import "node:fs"/,
    ],
    [
      'src/db/probe.ts',
      "import { join } from 'path'\nexport const x = join\n",
      /layers: .+ may not import "path"/,
    ],
    [
      'electron/engine/probe.ts',
      "import { app } from 'electron'\nexport const x = app\n",
      /layers: .+ may not import "electron"/,
    ],
    [
      'electron/domain/probe.ts',
      'export const x = () => process.env.HOME\n',
      /no-restricted-globals: .*process is not there/,
    ],
    [
      'electron/shared/probe.ts',
      'export const x = () => window.location\n',
      /no-restricted-globals: .*window is not there/,
    ],
    [
      'src/stores/probe.ts',
      "export const x = () => Buffer.from('a')\n",
      /no-restricted-globals: .*Buffer is not there/,
    ],
    [
      'electron/engine/probe.ts',
      'export const x = () => document.title\n',
      /no-restricted-globals: .*document is not there/,
    ],
    [
      'src/workers/probe.ts',
      'export const x = () => document.title\n',
      /no-restricted-globals: .*document is not there/,
    ],
  ])('%s: %s is refused', async (path, code, expected) => {
    const found = await problems(path, code)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatch(expected)
  })

  it.each([
    [
      'electron/engine/probe.ts',
      "import { join } from 'node:path'\nexport const x = () => join(process.cwd(), 'a')\n",
    ],
    [
      'electron/domain/probe.ts',
      "export const x = () => new TextDecoder().decode(new Uint8Array()) + new URL('a:b').href\n",
    ],
    ['src/stores/probe.ts', 'export const x = () => window.location.href + document.title\n'],
    ['src/workers/probe.ts', 'export const x = () => self.postMessage(performance.now())\n'],
    ['electron/main/probe.ts', "import { app } from 'electron'\nexport const x = app\n"],
  ])('%s: %s is allowed', async (path, code) => {
    expect(await problems(path, code)).toEqual([])
  })
})
