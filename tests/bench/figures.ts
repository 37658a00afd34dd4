import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'

/** What a figure is held to: at most (`max`) or at least (`min`) this value. */
export interface Target {
  max?: number
  min?: number
}

export interface Figure {
  bench: string
  name: string
  value: number | null
  unit: string
  target?: Target
  /** value / limit; above 1 means short of the target for a `max`, below 1 for a `min`. */
  ratio?: number
  /** What was measured when it is not the obvious thing (a module instead of the UI, a variant). */
  note?: string
}

export function figure(
  bench: string,
  name: string,
  value: number | null,
  unit: string,
  target?: Target,
  note?: string,
): Figure {
  const limit = target?.max ?? target?.min
  const ratio = value !== null && limit !== undefined && limit !== 0 ? value / limit : undefined
  return {
    bench,
    name,
    value,
    unit,
    ...(target ? { target } : {}),
    ...(ratio !== undefined ? { ratio } : {}),
    note,
  }
}

/** Whether a figure meets its target; undefined when it has none or was not measured. */
export function meets(item: Figure): boolean | undefined {
  if (!item.target || item.value === null) return undefined
  if (item.target.max !== undefined) return item.value <= item.target.max
  if (item.target.min !== undefined) return item.value >= item.target.min
  return undefined
}

export function formatNumber(value: number | null): string {
  if (value === null) return 'n/a'
  if (Number.isInteger(value)) return value.toLocaleString('en-US')
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

export function formatTarget(target: Target | undefined, unit: string): string {
  if (target?.max !== undefined) return `≤ ${formatNumber(target.max)} ${unit}`.trim()
  if (target?.min !== undefined) return `≥ ${formatNumber(target.min)} ${unit}`.trim()
  return ''
}

function pad(cells: string[], widths: number[]): string {
  return cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')
}

/** A plain-text table, one line per figure, notes underneath their row. */
export function table(figures: Figure[]): string {
  const rows = figures.map((item) => {
    const verdict = meets(item)
    return [
      item.bench,
      item.name,
      `${formatNumber(item.value)} ${item.unit}`.trim(),
      formatTarget(item.target, item.unit),
      item.ratio === undefined ? '' : `${item.ratio.toFixed(2)}×`,
      verdict === undefined ? '' : verdict ? 'ok' : 'SHORT',
    ]
  })
  const header = ['bench', 'figure', 'value', 'target', 'ratio', '']
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]!.length)))
  const lines = [pad(header, widths), widths.map((width) => '-'.repeat(width)).join('  ')]
  rows.forEach((row, i) => {
    lines.push(pad(row, widths))
    const note = figures[i]!.note
    if (note) lines.push(`${' '.repeat((widths[0] ?? 0) + 2)}  ↳ ${note}`)
  })
  return lines.join('\n')
}

/** A Markdown table of the same figures, for docs/performance.md. */
export function markdown(figures: Figure[]): string {
  const lines = ['| Bench | Figure | Value | Target | Ratio | Note |', '|---|---|---|---|---|---|']
  for (const item of figures) {
    const verdict = meets(item)
    const ratio = item.ratio === undefined ? '' : `${item.ratio.toFixed(2)}×${verdict === false ? ' ⚠' : ''}`
    lines.push(
      `| ${item.bench} | ${item.name} | ${formatNumber(item.value)} ${item.unit} | ${formatTarget(item.target, item.unit)} | ${ratio} | ${item.note ?? ''} |`,
    )
  }
  return lines.join('\n')
}

export function writeResults(
  dir: string,
  run: {
    startedAt: Date
    quick: boolean
    only: string[]
    figures: Figure[]
    errors: Record<string, string>
    loadAtStart: number[]
  },
): string {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${run.startedAt.toISOString().replace(/[:.]/g, '-')}.json`)
  writeFileSync(
    file,
    JSON.stringify(
      {
        startedAt: run.startedAt.toISOString(),
        quick: run.quick,
        only: run.only,
        machine: { ...machineInfo(), loadAverageAtStart: run.loadAtStart },
        figures: run.figures,
        errors: run.errors,
      },
      null,
      2,
    ) + '\n',
  )
  return file
}

function machineInfo(): Record<string, unknown> {
  return {
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    loadAverageAtEnd: loadavg(),
  }
}
