import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import vue from 'eslint-plugin-vue'
import prettier from 'eslint-config-prettier'
import globals from 'globals'
import { plugin as layers } from './eslint.layers.js'

// Each tree gets the globals of the host it runs on, and the globals only another host has are refused
// by name (TypeScript files leave `no-undef` to the compiler, which sees both hosts' types in tests).
const names = (set) => new Set(Object.keys(set))
const only = (of, ...others) => [...names(of)].filter((name) => !others.some((other) => name in other))
const shared = globals['shared-node-browser']
const nodeOnly = only(globals.node, globals.browser, globals.worker, shared)
const pageOnly = only(globals.browser, globals.node, shared)
const windowOnly = only(globals.browser, globals.worker, globals.node, shared)
const refuse = (list, where) => [
  'error',
  ...list.map((name) => ({ name, message: `${name} is not there where this tree runs (${where}).` })),
]

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'bench-results', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
  },
  {
    plugins: { leadkeeper: layers },
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      'leadkeeper/layers': 'error',
    },
  },
  {
    files: ['electron/**'],
    ignores: ['electron/domain/**', 'electron/shared/**'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-restricted-globals': refuse(pageOnly, "Node, Electron's main process") },
  },
  {
    files: ['electron/domain/**', 'electron/shared/**'],
    languageOptions: { globals: { ...shared } },
    rules: { 'no-restricted-globals': refuse([...nodeOnly, ...pageOnly], 'a page and Node alike') },
  },
  {
    files: ['src/**'],
    ignores: ['src/workers/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-globals': refuse(nodeOnly, 'a page') },
  },
  {
    // The contract's schemas are the main process's: a page imports its types and `limits.ts`. The
    // export writer (with the Excel writer's compressor) is the export workers': a page names, joins
    // and downloads files with `export-file.ts`, and loads the writer only with import() where no
    // worker can run.
    files: ['src/**'],
    ignores: ['src/workers/export-answer.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@shared/contract',
              allowTypeImports: true,
              message: "Import the contract's types only; a limit a page needs goes in @shared/limits.",
            },
            {
              name: '@shared/result',
              allowTypeImports: true,
              message: 'Import its types only: the module builds a schema as it loads.',
            },
            { name: 'zod', message: 'Validation belongs to the main process; a page carries no schemas.' },
            {
              name: '@/db/export-list',
              allowTypeImports: true,
              message: 'The export writer runs in the export workers: a page uses @/db/export-file.',
            },
          ],
        },
      ],
    },
  },
  {
    // Dexie follows native awaits inside a transaction only when its scope is an async function: a
    // plain arrow returning an async call loses the transaction at its first await, and Chromium then
    // commits it under the work still running (PrematureCommitError, or writes outside it).
    files: ['src/**', 'tests/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name='transaction'] > :matches(ArrowFunctionExpression, FunctionExpression)[async=false]",
          message:
            "A transaction's scope is an async function: Dexie keeps the transaction across awaits only then.",
        },
      ],
    },
  },
  {
    files: ['src/workers/**'],
    languageOptions: { globals: { ...globals.worker } },
    rules: { 'no-restricted-globals': refuse([...nodeOnly, ...windowOnly], 'a worker') },
  },
  prettier,
)
