import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { exitCodeForJob, nextStep } from '../../../../electron/cli/exit-codes'
import { rerunCommand, shellQuote } from '../../../../electron/cli/summary'
import { jobRecord } from '../engine/jobs/job-record'

const node = '/usr/bin/node'

describe('rerunCommand', () => {
  it('starts from the sources with npx tsx, relative to the working directory when inside it', () => {
    const argv = [node, '/home/ada/app/electron/cli/index.ts', 'enrich', 'a.csv', '-o', 'out.csv']
    expect(rerunCommand(argv, '/home/ada/app')).toBe('npx tsx electron/cli/index.ts enrich a.csv -o out.csv')
    expect(rerunCommand(argv, '/home/ada')).toBe('npx tsx app/electron/cli/index.ts enrich a.csv -o out.csv')
    expect(rerunCommand(argv, '/tmp')).toBe(
      'npx tsx /home/ada/app/electron/cli/index.ts enrich a.csv -o out.csv',
    )
    // A sibling folder whose name starts like the working directory's is outside it.
    expect(rerunCommand(argv, '/home/ada/ap')).toMatch(/^npx tsx \/home\/ada\/app\//)
  })

  it('quotes a script path with a space', () => {
    const argv = [node, '/home/ada/my app/electron/cli/index.ts', 'jobs']
    expect(rerunCommand(argv, '/tmp')).toBe("npx tsx '/home/ada/my app/electron/cli/index.ts' jobs")
    expect(rerunCommand(argv, '/home/ada/my app')).toBe('npx tsx electron/cli/index.ts jobs')
  })

  it('prints leadkeeper for the installed bin', () => {
    for (const script of [
      '/usr/lib/node_modules/leadkeeper/out/cli/index.js',
      '/usr/local/bin/leadkeeper',
      '/work/project/node_modules/.bin/leadkeeper',
      'C:\\Users\\ada\\AppData\\npm\\node_modules\\leadkeeper\\out\\cli\\index.js',
      'C:\\Users\\ada\\AppData\\npm\\leadkeeper.cmd',
    ])
      expect(rerunCommand([node, script, 'account'], '/tmp')).toBe('leadkeeper account')
  })

  it('quotes each argument that the shell would change, and only those', () => {
    const argv = [
      node,
      '/app/out/cli/index.js',
      '--json',
      'enrich',
      "O'Brien.csv",
      '-o',
      'my out.csv',
      '--map',
      'first_name=Given Name',
      '--max-credits',
      '500',
      '--base-url',
      'https://svc.example:8443/api/v2',
    ]
    expect(rerunCommand(argv, '/tmp')).toBe(
      "leadkeeper --json enrich 'O'\\''Brien.csv' -o 'my out.csv' --map 'first_name=Given Name' " +
        '--max-credits 500 --base-url https://svc.example:8443/api/v2',
    )
    expect(shellQuote('')).toBe("''")
    expect(shellQuote('~/list.csv')).toBe("'~/list.csv'")
    expect(shellQuote('$HOME')).toBe("'$HOME'")
  })

  it('gives every argument back unchanged through bash', () => {
    const nasty = [
      "it's",
      'two words',
      '$HOME and `uname` and $(id)',
      'a;b|c&d>e<f',
      'star * glob ? [x]',
      'back\\slash',
      '"double"',
      'new\nline\ttab',
      'hist!ory',
      '~tilde',
      '#hash',
      'é ü 漢字',
      '',
      "''",
    ]
    const result = spawnSync('bash', ['-c', `printf '%s\\0' ${nasty.map(shellQuote).join(' ')}`], {
      encoding: 'utf8',
    })
    expect(result.status).toBe(0)
    expect(result.stdout.split('\0').slice(0, -1)).toEqual(nasty)
  })
})

describe('a job that gave rows up', () => {
  const skipped = jobRecord('job-1', {
    state: 'done',
    chunks: [
      { index: 0, state: 'done', size: 2, submissions: 1 },
      { index: 1, state: 'skipped', size: 3, submissions: 1 },
    ],
  })

  it('exits 5 with a hint that counts the rows, from the results when given, else the leads', () => {
    expect(exitCodeForJob(skipped)).toBe(5)
    expect(exitCodeForJob({ ...skipped, chunks: [skipped.chunks[0]!] })).toBe(0)
    expect(nextStep(skipped, 'leadkeeper enrich a.csv -o b.csv')).toMatch(/^3 row\(s\) were skipped/)
    expect(nextStep(skipped, 'leadkeeper enrich a.csv -o b.csv', 4)).toMatch(/^4 row\(s\) were skipped/)
    expect(nextStep({ ...skipped, kind: 'company_search' }, 'x')).toMatch(/^Up to 3 result\(s\) are missing/)
  })
})
