import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { startSandbox, type Sandbox } from '../../../electron/sandbox'
import { contactTraits } from '../../../electron/sandbox/contacts'
import { moveOf } from '../../../electron/sandbox/movers'
import { DEFAULT_OPTIONS } from '../../../electron/sandbox/options'
import { getWorld } from '../../../electron/sandbox/world'
import { byStatus, call, pollUntil, startTestSandbox } from './support'

/** The world every sandbox of default options builds; this process shares its cache with theirs. */
const world = getWorld(DEFAULT_OPTIONS.seed, {
  companies: DEFAULT_OPTIONS.worldCompanies,
  peoplePerCompany: DEFAULT_OPTIONS.worldPeoplePerCompany,
})
const mover = (index: number) => {
  const person = world.people[index]!
  return moveOf(world, DEFAULT_OPTIONS.moverShare, person, contactTraits(world, person, false)) !== null
}
/** The first 80 people of the world: a few movers among them, by the default share. */
const people = world.people.slice(0, 80)
const movers = people.map((_, index) => index).filter(mover)
const batch = {
  data: people.map((person, index) => ({
    first_name: person.firstName,
    last_name: person.lastName,
    company_domain: person.company.domain,
    custom_fields: { row: String(index) },
  })),
  enrich_email_address: true,
}

interface Row {
  enriched: boolean
  company_domain: string | null
  contact_job_title: string | null
  contact_email_address: string | null
}
const what = (row: Row) => [row.company_domain, row.contact_job_title, row.contact_email_address]

async function enrich(sandbox: Sandbox, key: string): Promise<Row[]> {
  const created = await call(sandbox, 'POST', '/async', { key, body: batch })
  expect(created.status).toBe(201)
  const done = await pollUntil(
    () => call(sandbox, 'GET', `/async/${created.body.id}`, { key }),
    byStatus('terminated'),
  )
  return done.body.data
}

/** Indexes of the rows whose company, title or email differ between two answers. */
const differing = (a: Row[], b: Row[]) =>
  a.map((row, index) => index).filter((index) => what(a[index]!).join() !== what(b[index]!).join())

let standalone: Sandbox
let embedded: Sandbox
let dir: string

beforeAll(async () => {
  standalone = await startTestSandbox()
  // As the app and the web host start it: private, this run's secret as its only key.
  embedded = await startSandbox({ timeScale: 0.01, rateLimitPerMinute: 100_000 }, {})
  dir = await mkdtemp(join(tmpdir(), 'sandbox-movers-'))
})
afterAll(async () => {
  await Promise.all([standalone.close(), embedded.close()])
  await rm(dir, { recursive: true, force: true })
})

describe('people who move between answers', () => {
  it('answer the same first and move at the second answer to the same account, embedded or alone', async () => {
    expect(movers.length).toBeGreaterThan(0)
    expect(movers.length).toBeLessThan(people.length / 5)
    const answers: Row[][][] = []
    for (const sandbox of [standalone, embedded]) {
      const first = await enrich(sandbox, sandbox.demoKey)
      const second = await enrich(sandbox, sandbox.demoKey)
      const third = await enrich(sandbox, sandbox.demoKey)
      // Only the movers found differ, and a third answer is the second again.
      const found = movers.filter((index) => first[index]!.enriched)
      expect(found.length).toBeGreaterThan(0)
      expect(differing(first, second)).toEqual(found)
      expect(differing(second, third)).toEqual([])
      answers.push([first, second])
    }
    // Both faces of the sandbox build the same world and move the same people the same way.
    expect(answers[1]!.map((rows) => rows.map(what))).toEqual(answers[0]!.map((rows) => rows.map(what)))
  })

  it('move for each account at its own second answer', async () => {
    const { key: a } = await standalone.control.createAccount({ credits: 1000 })
    const { key: b } = await standalone.control.createAccount({ credits: 1000 })
    const firstOfA = await enrich(standalone, a)
    await enrich(standalone, a)
    const firstOfB = await enrich(standalone, b)
    expect(differing(firstOfA, firstOfB)).toEqual([])
  })

  it('move in a lead profile lookup too, once the account was answered about them', async () => {
    const { key } = await standalone.control.createAccount({ credits: 1000 })
    // A lookup carries no email: a mover of company or title shows there.
    const person = world.people.find((candidate) =>
      ['company', 'title'].includes(
        moveOf(world, DEFAULT_OPTIONS.moverShare, candidate, contactTraits(world, candidate, false)) ?? '',
      ),
    )!
    const lookup = () =>
      call(standalone, 'POST', '/enrich_profile/lead', { key, body: { network_url: person.networkUrl } })
    const first = await lookup()
    const second = await lookup()
    expect(first.status).toBe(200)
    expect([first.body.data.company_domain, first.body.data.contact_job_title]).toEqual([
      person.company.domain,
      person.jobTitle,
    ])
    expect([second.body.data.company_domain, second.body.data.contact_job_title]).not.toEqual([
      person.company.domain,
      person.jobTitle,
    ])
  })

  it('stay moved for an account across a restart of the sandbox', async () => {
    const before = await startTestSandbox({ stateDir: dir })
    onTestFinished(() => before.close())
    const first = await enrich(before, before.demoKey)
    const second = await enrich(before, before.demoKey)
    await before.close()
    const after = await startTestSandbox({ stateDir: dir })
    onTestFinished(() => after.close())
    const third = await enrich(after, after.demoKey)
    expect(differing(first, second).length).toBeGreaterThan(0)
    expect(differing(second, third)).toEqual([])
  })
})
