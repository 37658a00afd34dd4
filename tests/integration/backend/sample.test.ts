import Papa from 'papaparse'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ChannelInput, ChannelName, ChannelOutput } from '../../../electron/shared/contract'
import { dispatch } from '../../../electron/backend/dispatch'
import { leadOf, personKeyOf } from '../../../electron/domain/person'
import { startTestBackend, type TestBackend } from '../../support/backend'

let bed: TestBackend
beforeEach(async () => {
  bed = await startTestBackend()
})
afterEach(async () => {
  await bed.close()
})

async function call<C extends ChannelName>(channel: C, input?: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const result = await dispatch(bed.backend.handlers, channel, input)
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`)
  return result.data as ChannelOutput<C>
}

type SampleRow = Record<'First Name' | 'Last Name' | 'Company' | 'Website' | 'Notes', string>

/** Who a row names, by the rule the import and the run use. */
const personOf = (row: SampleRow) =>
  personKeyOf(leadOf({ first_name: row['First Name'], last_name: row['Last Name'], website: row['Website'] }))

describe('the sandbox sample list', () => {
  it('holds a few hundred people, repeats written differently, and the people its search returns', async () => {
    const sample = await call('sandbox/sample')
    expect(await call('sandbox/sample')).toEqual(sample)
    const rows = Papa.parse<SampleRow>(sample.csv, { header: true, skipEmptyLines: true }).data
    expect(rows).toHaveLength(sample.rows)
    expect(sample.rows).toBeGreaterThanOrEqual(200)
    expect(sample.rows).toBeLessThanOrEqual(500)

    // Every repeat names the person of the row its note gives, written otherwise.
    const repeats = rows.flatMap((row, index) => {
      const match = /^Same person as row (\d+)/.exec(row.Notes)
      return match ? [{ index, row, original: rows[Number(match[1]) - 1]! }] : []
    })
    expect(repeats.length).toBeGreaterThanOrEqual(20)
    for (const { index, row, original } of repeats) {
      expect(rows.indexOf(original)).toBeLessThan(index)
      expect(row['First Name']).not.toBe(original['First Name'])
      expect(personOf(row)).toBe(personOf(original))
    }
    expect(rows.filter((row) => row.Website === 'gmail.com').length).toBeGreaterThan(0)
    expect(rows.filter((row) => !row.Website || !row['Last Name']).length).toBeGreaterThan(0)

    // The sample's search, run through the contract, returns the people the sample marks as known.
    const done = bed.next('jobs/state', (event) => event.jobId === 'search-sample' && event.state === 'done')
    await call('jobs/startLeadSearch', {
      jobId: 'search-sample',
      label: sample.search.label,
      search: { filters: sample.search.filters, limit: sample.search.limit, email: sample.search.email },
    })
    await done
    const page = await call('jobs/results', { jobId: 'search-sample' })
    const leads = page.batches.flatMap((batch) => batch.rows).map((row) => row.data!)
    expect(leads.length).toBeGreaterThan(0)
    expect(leads.length).toBeLessThan(sample.search.limit)
    const searched = new Set(
      leads.map((lead) =>
        personKeyOf(
          leadOf({
            first_name: String(lead['contact_first_name']),
            last_name: String(lead['contact_last_name']),
            company_domain: String(lead['company_domain']),
          }),
        ),
      ),
    )
    const marked = rows.filter((row) => row.Notes.startsWith('Found by the sample search'))
    expect(new Set(marked.map(personOf))).toEqual(searched)
  })

  it('is not offered once a key is set, even with the sandbox chosen', async () => {
    await call('settings/setKey', { key: 'lk_live_0123456789abcdef', storage: 'persistent' })
    expect((await call('settings/get')).mode).toBe('sandbox')
    const refused = await dispatch(bed.backend.handlers, 'sandbox/sample', undefined)
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_available' } })
  })
})
