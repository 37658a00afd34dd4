import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Figure } from './figures'
import { markdown } from './figures'

/**
 * `npx tsx tests/bench/markdown.ts [results.json]`: the figures of a run (the latest under
 * bench-results/ by default) as a Markdown table, for docs/performance.md and the README.
 */
const file =
  process.argv[2] ??
  join(
    'bench-results',
    readdirSync('bench-results')
      .filter((name) => name.endsWith('.json'))
      .sort()
      .pop() ?? '',
  )
const run = JSON.parse(readFileSync(file, 'utf8')) as { startedAt: string; figures: Figure[] }
console.log(`Run of ${run.startedAt} (${file}):\n`)
console.log(markdown(run.figures))
