/**
 * The layers of the code base and which way imports may run between them, kept by `npm run lint`.
 *
 *   renderer:  app → features, components → stores → workers, db → domain, shared
 *   node:      main, web, cli → backend → engine → domain
 *   shared (the contract of both transports) depends on the domain only; the sandbox on nothing of
 *   the client; domain, shared and the whole renderer run without a host (no Node, no Electron).
 *
 * A module may import its own layer and the layers listed in `may`, and only types from those in
 * `types`: features name the database's records but reach IndexedDB through the stores. Tests, scripts
 * and configuration sit outside the layers and may import anything.
 */
import { builtinModules } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.dirname(fileURLToPath(import.meta.url))

const aliases = [
  ['@/', 'src/'],
  ['@shared/', 'electron/shared/'],
  ['@domain/', 'electron/domain/'],
]

const hostModules = new Set([...builtinModules, 'electron'])

/** The three shells (the desktop app, the web host, the command line) stand on the same layers. */
const shells = [
  'electron/backend',
  'electron/engine',
  'electron/sandbox',
  'electron/domain',
  'electron/shared',
  'resources',
]

/** `host`: 'none' (runs in a page and in Node alike), 'node' (Node, never Electron), 'any'. */
export const layers = {
  resources: { may: [], host: 'none' },
  'electron/domain': { may: ['resources'], host: 'none' },
  'electron/shared': { may: ['electron/domain', 'resources'], host: 'none' },
  'electron/engine': { may: ['electron/domain', 'electron/shared', 'resources'], host: 'node' },
  'electron/backend': {
    may: ['electron/engine', 'electron/domain', 'electron/shared', 'resources'],
    host: 'node',
  },
  'electron/sandbox': { may: ['resources'], host: 'node' },
  'electron/main': { may: shells, host: 'any' },
  'electron/preload': { may: ['electron/shared'], host: 'any' },
  'electron/web': { may: shells, host: 'node' },
  'electron/cli': { may: shells, host: 'node' },
  'src/ui': { may: ['electron/domain', 'electron/shared', 'resources'], host: 'none' },
  'src/bridge': { may: ['electron/shared'], host: 'none' },
  'src/db': { may: ['electron/domain', 'electron/shared', 'resources'], host: 'none' },
  'src/workers': { may: ['src/db', 'electron/domain', 'electron/shared', 'resources'], host: 'none' },
  'src/stores': {
    may: ['src/workers', 'src/db', 'src/bridge', 'src/ui', 'electron/domain', 'electron/shared', 'resources'],
    host: 'none',
  },
  'src/components': {
    may: ['src/stores', 'src/db', 'src/ui', 'electron/domain', 'electron/shared', 'resources'],
    host: 'none',
  },
  'src/features': {
    types: ['src/db'],
    may: ['src/components', 'src/stores', 'src/ui', 'electron/domain', 'electron/shared', 'resources'],
    host: 'none',
  },
  'src/app': {
    may: [
      'src/features',
      'src/components',
      'src/stores',
      'src/workers',
      'src/db',
      'src/bridge',
      'src/ui',
      'electron/domain',
      'electron/shared',
      'resources',
    ],
    host: 'none',
  },
}

const names = Object.keys(layers).sort((a, b) => b.length - a.length)

/** The layer of a path relative to the repository's root, or undefined outside the layers. */
export function layerOf(relative) {
  const unix = relative.split(path.sep).join('/')
  if (unix === 'src/main.ts') return 'src/app'
  return names.find((name) => unix === name || unix.startsWith(`${name}/`))
}

function target(specifier, fromFile) {
  for (const [alias, folder] of aliases) {
    if (specifier.startsWith(alias)) return folder + specifier.slice(alias.length)
  }
  if (specifier.startsWith('.')) return path.relative(root, path.resolve(path.dirname(fromFile), specifier))
  return undefined
}

const packageName = (specifier) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]

const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports run one way between the layers declared in eslint.layers.js.' },
    schema: [],
    messages: {
      layer:
        '{{from}} may not import {{to}} ({{specifier}}): imports run {{from}} → {{allowed}} (eslint.layers.js).',
      types:
        '{{from}} may import only types from {{to}} ({{specifier}}): reach it through the stores (eslint.layers.js).',
      host: '{{from}} runs {{where}}, so it may not import "{{specifier}}".',
    },
  },
  create(context) {
    const file = context.filename
    const from = layerOf(path.relative(root, file))
    if (!from) return {}
    const layer = layers[from]
    const check = (node, specifier, typeOnly = false) => {
      if (typeof specifier !== 'string') return
      const relative = target(specifier, file)
      if (relative === undefined) {
        const name = packageName(specifier.replace(/^node:/, ''))
        const isHost = specifier.startsWith('node:') || hostModules.has(name)
        if (layer.host === 'none' && isHost) {
          context.report({
            node,
            messageId: 'host',
            data: { from, specifier, where: 'in a page and in Node alike' },
          })
        } else if (layer.host === 'node' && name === 'electron') {
          context.report({ node, messageId: 'host', data: { from, specifier, where: 'without Electron' } })
        }
        return
      }
      const to = layerOf(relative)
      if (!to || to === from || layer.may.includes(to)) return
      if (layer.types?.includes(to)) {
        if (!typeOnly) context.report({ node, messageId: 'types', data: { from, to, specifier } })
        return
      }
      context.report({
        node,
        messageId: 'layer',
        data: { from, to, specifier, allowed: layer.may.length ? layer.may.join(', ') : 'nothing else' },
      })
    }
    /** `import type …`, `export type …`, or an import whose every name is a type. */
    const onlyTypes = (node) =>
      node.importKind === 'type' ||
      node.exportKind === 'type' ||
      (node.specifiers?.length > 0 &&
        node.specifiers.every((one) => one.importKind === 'type' || one.exportKind === 'type'))
    const fromSource = (node) => node.source && check(node.source, node.source.value, onlyTypes(node))
    return {
      ImportDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    }
  },
}

export const plugin = { rules: { layers: layersRule } }
