import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { formatNumber, formatTarget, meets, type Figure } from './figures'

/**
 * `npx tsx tests/bench/targets.ts [runs]`: every figure that has a target, over the latest full runs
 * under bench-results/ (5 by default; full: neither `--quick` nor `--only`), as a Markdown table for
 * docs/performance.md and the README: the latest run's value, the lowest and highest of the runs, and
 * in how many of them the target was met. A figure swings with what the machine does meanwhile: one
 * run says little, the spread says more.
 */
interface Run {
  file: string
  startedAt: string
  quick: boolean
  only: string[]
  figures: Figure[]
}

const dir = 'bench-results'
const wanted = Number(process.argv[2] ?? 5)
if (!Number.isInteger(wanted) || wanted < 1)
  throw new Error(`Runs must be a whole number from 1: ${process.argv[2]}`)

const runs: Run[] = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .reverse()
  .map((name) => ({
    file: name,
    ...(JSON.parse(readFileSync(join(dir, name), 'utf8')) as Omit<Run, 'file'>),
  }))
  .filter((run) => !run.quick && run.only.length === 0)
  .slice(0, wanted)
if (runs.length === 0) throw new Error(`No full run in ${dir}/: run \`npm run bench\` first.`)

const key = (item: Figure) => `${item.bench}\u0000${item.name}`
const value = (item: Figure) => `${formatNumber(item.value)} ${item.unit}`.trim()

const [latest] = runs
const lines = [
  `Full runs, newest first: ${runs.map((run) => run.file).join(', ')}.`,
  '',
  `| Bench | Figure | Latest | Lowest – highest of ${runs.length} | Target | Met |`,
  '|---|---|---|---|---|---|',
]
for (const item of latest!.figures) {
  if (!item.target) continue
  const seen = runs
    .map((run) => run.figures.find((other) => key(other) === key(item)))
    .filter((other): other is Figure => other !== undefined && other.value !== null)
  const values = seen.map((other) => other.value!)
  const spread =
    values.length === 0
      ? ''
      : `${formatNumber(Math.min(...values))} – ${formatNumber(Math.max(...values))} ${item.unit}`.trim()
  const met = seen.filter((other) => meets(other) === true).length
  const verdict = meets(item) === false ? ' ⚠' : ''
  lines.push(
    `| ${item.bench} | ${item.name} | ${value(item)}${verdict} | ${spread} | ${formatTarget(item.target, item.unit)} | ${met} of ${seen.length} |`,
  )
}
console.log(lines.join('\n'))
