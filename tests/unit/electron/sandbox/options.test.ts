import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CLI_FLAGS, parseSandboxArgs, sandboxCommand } from '../../../../electron/sandbox/cli-flags'
import { DEFAULT_OPTIONS, resolveOptions } from '../../../../electron/sandbox/options'

const DOC = readFileSync(new URL('../../../../docs/sandbox.md', import.meta.url), 'utf8')

/** The lines of one `## ` section of the document. */
function section(title: string): string {
  const start = DOC.indexOf(`## ${title}`)
  expect(start, title).toBeGreaterThanOrEqual(0)
  const end = DOC.indexOf('\n## ', start + 3)
  return DOC.slice(start, end === -1 ? undefined : end)
}

/** `'text'`, `[1, 2]`, `null`, `true`, `1000` or `none` as written in the options table. */
function documentedValue(cell: string): unknown {
  const value = cell.replace(/`/g, '').trim()
  return value === 'none' ? null : JSON.parse(value.replace(/'/g, '"'))
}

/** Option name → documented default, from the rows of the options table. */
function documentedOptions(): Map<string, unknown> {
  const options = new Map<string, unknown>()
  for (const line of section('Options (`SandboxOptions`) and defaults').split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim())
    if (!cells[1]?.startsWith('`') || cells[1] === '`Option`') continue
    const names = cells[1].split(' / ').map((name) => name.replace(/`/g, ''))
    const values = (cells[2] ?? '').split(' / ')
    names.forEach((name, i) => options.set(name, documentedValue(values[i] ?? '')))
  }
  return options
}

const flagOf = (option: string) => CLI_FLAGS.find((flag) => flag.option === option)
const flagName = (flags: string) => flags.split(' ')[0] as string

function parse(argv: string[]) {
  const program = sandboxCommand()
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} })
  return parseSandboxArgs(program, argv)
}

describe('sandbox options and their documentation', () => {
  it('documents every option with its real default, and names no option that does not exist', () => {
    const documented = documentedOptions()
    expect([...documented.keys()].sort()).toEqual(Object.keys(DEFAULT_OPTIONS).sort())
    for (const [name, value] of documented) {
      expect(value, name).toEqual(DEFAULT_OPTIONS[name as keyof typeof DEFAULT_OPTIONS])
    }
  })

  it('gives every option a flag but webhookRetryDelaysMs, the kebab case of its name but --rate-limit', () => {
    const expected = Object.keys(DEFAULT_OPTIONS).filter((name) => name !== 'webhookRetryDelaysMs')
    expect(CLI_FLAGS.map((flag) => flag.option).sort()).toEqual(expected.sort())
    for (const flag of CLI_FLAGS) {
      const kebab = `--${flag.option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`
      expect(flagName(flag.flags)).toBe(flag.option === 'rateLimitPerMinute' ? '--rate-limit' : kebab)
    }
  })

  it('names only flags that exist, each next to the option it sets', () => {
    const known = new Set([...CLI_FLAGS.map((flag) => flagName(flag.flags)), '--help'])
    for (const [mention] of DOC.matchAll(/--[a-z][a-z-]+/g)) expect(known, mention).toContain(mention)
    const pairs = [...DOC.matchAll(/`(\w+)` \/ `(--[a-z-]+)`/g)]
    expect(pairs.length).toBeGreaterThan(20)
    for (const [, option, flag] of pairs)
      expect(flagName(flagOf(option as string)?.flags ?? ''), option).toBe(flag)
  })

  it('marks every "not shown" topic of the interface in the table of the sandbox’s own choices', () => {
    const table = section("What the interface does not show: the sandbox's own choices")
    for (const topic of [
      'rate limit',
      'Throttle of missing, unknown or deactivated keys',
      'Price of an email found',
      'Price of a phone found',
      'Price of a company-search result',
      'free search quotas',
      'lead search `limit`',
      'lead search `offset`',
      'lead search `max_leads`',
      'webhook receivers',
      'booleans of `POST /async`',
      'required beside `data`',
      'Other fields of a lead object',
      'Transition out of `not_started`',
      'Email statuses',
      'Seniorities',
      'Filter keys',
      '`total` as against `leads_found`',
      'Format and length of an API key',
      'Deprecation policy',
    ]) {
      expect(table, topic).toContain(topic)
    }
  })

  it('reads every flag into its option, and the defaults of the command are the options’ own', () => {
    // Only --port has a default of its own: the command has always listened on 8787.
    expect(resolveOptions(parse([]))).toEqual({ ...DEFAULT_OPTIONS, port: 8787 })
    expect(
      parse([
        '--rate-limit',
        '200',
        '--credits-per-company',
        '0.5',
        '--webhook-timeout-ms',
        '2500',
        '--lead-search-max-limit',
        '50',
        '--default-enrich-phone',
        'true',
        '--default-enrich-email',
        'false',
        '--default-free-lead-searches',
        '3',
        '--default-free-company-searches',
        'unlimited',
        '--demo-key',
        'my-key',
        '--state-dir',
        '/tmp/sandbox',
      ]),
    ).toMatchObject({
      rateLimitPerMinute: 200,
      creditsPerCompany: 0.5,
      webhookTimeoutMs: 2500,
      leadSearchMaxLimit: 50,
      defaultEnrichPhone: true,
      defaultEnrichEmail: false,
      defaultFreeLeadSearches: 3,
      defaultFreeCompanySearches: null,
      demoKey: 'my-key',
      stateDir: '/tmp/sandbox',
    })
  })

  it.each([
    ['--rate-limit', 'many'],
    ['--default-enrich-email', 'yes'],
    ['--default-free-lead-searches', '-1'],
    ['--default-free-company-searches', '1.5'],
  ])('refuses %s %s', (flag, value) => {
    expect(() => parse([flag, value])).toThrow()
  })
})
