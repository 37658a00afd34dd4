import { cpus, loadavg, totalmem } from 'node:os'
import { parseArgs } from 'node:util'
import { cliBench } from './cli'
import type { BenchContext } from './context'
import { editsBench } from './edits'
import { enrichmentBench } from './enrichment'
import type { Figure } from './figures'
import { table, writeResults } from './figures'
import { browserBench, companyBench, libraryBench } from './browser-bench'
import { startupBench } from './startup'
import { workbookBench } from './workbook'

/**
 * `npm run bench [-- --quick] [-- --only <name>[,<name>]]`: measures, prints a table on stdout and
 * writes the same figures as JSON under bench-results/. It never fails on a figure; it exits 1 only
 * when a bench could not run at all.
 */
const benches: Record<string, (ctx: BenchContext) => Promise<Figure[]>> = {
  enrichment: enrichmentBench,
  startup: startupBench,
  cli: cliBench,
  browser: browserBench,
  library: libraryBench,
  company: companyBench,
  workbook: workbookBench,
  edits: editsBench,
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true, default: [] },
    },
  })
  const only = values.only.flatMap((value) => value.split(',')).filter(Boolean)
  const unknown = only.filter((name) => !(name in benches))
  if (unknown.length) {
    console.error(`Unknown bench ${unknown.join(', ')}; choose from ${Object.keys(benches).join(', ')}.`)
    process.exit(2)
  }
  const startedAt = new Date()
  const loadAtStart = loadavg()
  const ctx: BenchContext = {
    quick: values.quick,
    log: (message) =>
      console.error(`[${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s] ${message}`),
  }
  ctx.log(
    `bench on ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB${ctx.quick ? ' (quick)' : ''}`,
  )
  const figures: Figure[] = []
  const errors: Record<string, string> = {}
  for (const [name, bench] of Object.entries(benches)) {
    if (only.length && !only.includes(name)) continue
    try {
      figures.push(...(await bench(ctx)))
    } catch (error) {
      errors[name] = error instanceof Error ? (error.stack ?? error.message) : String(error)
      ctx.log(`${name} could not run: ${errors[name]}`)
    }
  }
  const load = (values: number[]) => values.map((value) => value.toFixed(1)).join(' / ')
  console.log(
    `Load average (1/5/15 min) at start ${load(loadAtStart)}, at end ${load(loadavg())} on ${cpus().length} cores.`,
  )
  console.log(table(figures))
  const file = writeResults('bench-results', {
    startedAt,
    quick: ctx.quick,
    only,
    figures,
    errors,
    loadAtStart,
  })
  ctx.log(`written to ${file} in ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s`)
  process.exitCode = Object.keys(errors).length ? 1 : 0
}

void main()
