// @vitest-environment node
// The command line runs as a child process against an in-process sandbox: Node, not a page.
import 'fake-indexeddb/auto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ResultRow } from '@shared/contract'
import { suggestMapping } from '@domain/mapping'
import { buildPreview } from '@domain/read/preview'
import { listsOn } from '../support/database'
import { applyEnrichmentResults, applyKnownAnswers } from '@/db/rows'
import { LeadkeeperDb } from '@/db/schema'
import { exportList } from '@/db/export-list'
import { storeRows } from '@/db/import-rows'
import { JobLedger } from '../../../../electron/engine/jobs/ledger'
import type { CliBed } from '../../../integration/cli/harness'
import { runCli, serviceEnv, startCliBed } from '../../../integration/cli/harness'

let bed: CliBed | undefined
let database: LeadkeeperDb | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
  database?.close()
  await database?.delete()
  database = undefined
})

/**
 * A Windows-1252 file with twins, a row that names nobody, a domain that cannot exist, a formula,
 * a quoted comma and a row with more cells than the header.
 */
const file = Buffer.from(
  [
    'Prénom;Nom;Société;Site web;Notes',
    'Olivia;Bennett;Northwind Analytics;northwindanalytics.com;=HYPERLINK("x")',
    'Liam;Carter;Bluepeak Software;bluepeak.io;"a; b"',
    'OLIVIA; bennett ;Northwind;https://www.northwindanalytics.com/;twin',
    ';Rossi;Verdana Foods;verdanafoods.it;no first name',
    'Lucas;Moreau;Atelier Lumen;not a domain;bad domain',
    'Sofia;Rossi;Verdana Foods;verdanafoods.it;ok;extra cell',
    'René;Müller;Brücke;bruecke.de;ümlaut',
  ].join('\r\n') + '\r\n',
  'latin1',
)

describe("the app's export and the command line's output", () => {
  it('are the same bytes for the same file and the same results', async () => {
    bed = await startCliBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const input = join(bed.dir, 'people.csv')
    const output = join(bed.dir, 'people (enriched).csv')
    const stateDir = join(bed.dir, 'state')
    writeFileSync(input, file)
    const cli = await runCli(['--state-dir', stateDir, 'enrich', input, '-o', output], serviceEnv(bed, key))
    expect(cli.code, cli.stderr).toBe(0)
    const [job] = new JobLedger(stateDir).list()
    const results = new JobLedger(stateDir).results(job!.id, 0).batches.flatMap((batch) => batch.rows)
    expect(results.some((row) => row.twinOf)).toBe(true)

    // The app's path: the import, the run's decisions, the same results, the export.
    database = new LeadkeeperDb('parity-' + crypto.randomUUID())
    const lists = listsOn(database)
    const preview = buildPreview(new Uint8Array(file), true)
    const mapping = suggestMapping(preview.columns, preview.sample)
    const list = await lists.createList({
      name: 'people.csv',
      columns: preview.columns,
      mapping,
      source: { fileName: 'people.csv', size: file.length, ...preview },
    })
    async function* bytes() {
      yield new Uint8Array(file)
    }
    const stored = await storeRows(
      bytes(),
      { ...preview, width: preview.columns.length },
      { listId: list.id, mapping },
      lists,
    )
    await lists.finishImport(list.id, stored.parse.rows, stored.parse.widest)
    const plan = await lists.planRun(list.id, mapping, { email: true, phone: false, catchAll: false, now: 0 })
    expect(plan.rows.map((row) => row.key)).toEqual([0, 1, 2, 5, 6].map((index) => `${list.id}:${index}`))
    await applyKnownAnswers(list.id, plan.local, database)
    const appKey = (cliKey: string) => `${list.id}:${Number(cliKey.slice(4)) - 1}`
    const sent: ResultRow[] = results
      .filter((row) => row.status !== 'invalid')
      .map((row) => ({ ...row, key: appKey(row.key), ...(row.twinOf ? { twinOf: appKey(row.twinOf) } : {}) }))
    await applyEnrichmentResults(list.id, sent, 1, database)
    const exported = await exportList((await database.lists.get(list.id))!, { format: 'csv', database })

    const app = new Uint8Array(await exported.blob.arrayBuffer())
    const command = readFileSync(output)
    expect(Buffer.from(app).toString('utf8')).toBe(command.toString('utf8'))
    expect(Buffer.compare(Buffer.from(app), command)).toBe(0)

    const lines = command.toString('utf8').split('\r\n')
    expect(lines[0]).toContain('Prénom,Nom,Société,Site web,Notes,Column 6,Email')
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`)
    expect(lines[3]).toContain('same person as row 1, not charged')
    expect(lines[5]).toContain('invalid')
    expect(lines[6]).toContain('extra cell')
  })
})
