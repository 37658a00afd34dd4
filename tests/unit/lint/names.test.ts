// Files are named one way: a module in kebab-case (`row-query.ts`), a Vue component in PascalCase
// (`DataGrid.vue`), a test or spec after what it tests (`row-query.test.ts`, `DataGrid.test.ts`;
// a test that attacks the app says so: `main-window.exploit.test.ts`).
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../../..')
const code = /\.(ts|mts|cts|js|mjs|cjs|vue)$/

const kebab = /^[a-z0-9]+(-[a-z0-9]+)*$/
const pascal = /^[A-Z][A-Za-z0-9]*$/
const tags = ['test', 'spec', 'exploit', 'd', 'config']

/** Why a file's name breaks the convention, or null when it keeps it. */
function nameProblem(fileName: string): string | null {
  const [stem = '', ...rest] = fileName.split('.')
  const extension = rest.at(-1) ?? ''
  const middle = rest.slice(0, -1)
  if (middle.some((part) => !tags.includes(part)))
    return `only ${tags.map((tag) => `.${tag}`).join(', ')} may stand between the name and the extension`
  if (extension === 'vue') return pascal.test(stem) ? null : 'a Vue component should be named in PascalCase'
  if (kebab.test(stem)) return null
  // A component's test is named after the component.
  if (middle.includes('test') && pascal.test(stem)) return null
  return 'a module should be named in kebab-case'
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return []
    const path = join(dir, entry.name)
    return entry.isDirectory() ? files(path) : code.test(entry.name) ? [path] : []
  })
}

describe('file names', () => {
  it('keep the convention everywhere in src, electron and tests', () => {
    const broken = ['src', 'electron', 'tests']
      .flatMap((dir) => files(join(root, dir)))
      .map((path) => [relative(root, path), nameProblem(path.split(/[\\/]/).at(-1)!)] as const)
      .filter(([, problem]) => problem !== null)
      .map(([path, problem]) => `${path}: ${problem}`)
    expect(broken).toEqual([])
  })

  it.each([
    ['row-query.ts', null],
    ['DataGrid.vue', null],
    ['row-query.test.ts', null],
    ['DataGrid.test.ts', null],
    ['grid-million.spec.ts', null],
    ['main-window.exploit.test.ts', null],
    ['listView.ts', 'a module should be named in kebab-case'],
    ['list_view.ts', 'a module should be named in kebab-case'],
    ['dataGrid.vue', 'a Vue component should be named in PascalCase'],
    ['ListView.ts', 'a module should be named in kebab-case'],
    [
      'row-query.old.ts',
      'only .test, .spec, .exploit, .d, .config may stand between the name and the extension',
    ],
  ])('%s: %s', (name, problem) => {
    expect(nameProblem(name)).toBe(problem)
  })
})
