import { describe, expect, it } from 'vitest'
import { Accounts } from '../../../../electron/sandbox/accounts'
import { contactTraits } from '../../../../electron/sandbox/contacts'
import { enrichLead } from '../../../../electron/sandbox/jobs/enrichment'
import { searchedLead } from '../../../../electron/sandbox/jobs/lead-search'
import { moveOf, moved, type MoveKind } from '../../../../electron/sandbox/movers'
import { resolveOptions } from '../../../../electron/sandbox/options'
import { getWorld } from '../../../../electron/sandbox/world'
import type { Person } from '../../../../electron/sandbox/world/types'

const options = resolveOptions({ seed: 3, worldCompanies: 400, worldPeoplePerCompany: 10 })
const world = getWorld(3, { companies: 400, peoplePerCompany: 10 })
const ctx = { world: () => world, options }
const flags = { email: true, phone: true, verifyCatchAll: false }

const traitsOf = (person: Person) => contactTraits(world, person, false)
const kindOf = (person: Person) => moveOf(world, options.moverShare, person, traitsOf(person))
const leadOf = (person: Person) => ({
  first_name: person.firstName,
  last_name: person.lastName,
  company_domain: person.company.domain,
})
const never = () => false
const always = () => true

/** The world's people by what their later answers change, in world order. */
const byKind = new Map<MoveKind | null, Person[]>()
for (const person of world.people) {
  const kind = kindOf(person)
  byKind.set(kind, [...(byKind.get(kind) ?? []), person])
}
/** A person of each kind whom an enrichment by name and domain finds (a few opt out). */
const found = (kind: MoveKind | null) =>
  byKind.get(kind)!.find((person) => enrichLead(ctx, leadOf(person), flags, never).row.enriched)!

describe('people whose answers change', () => {
  it('are a stable few percent of the world, of every kind, chosen by seed and person alone', () => {
    const movers = world.people.length - byKind.get(null)!.length
    expect(movers / world.people.length).toBeGreaterThan(0.03)
    expect(movers / world.people.length).toBeLessThan(0.07)
    for (const kind of ['company', 'title', 'email'] as const)
      expect(byKind.get(kind)?.length).toBeGreaterThan(10)
    // The same world built again (as by another run of the sandbox) picks the same people.
    const again = getWorld(3, { companies: 400, peoplePerCompany: 10 })
    expect(again.people.map((person) => moveOf(again, options.moverShare, person, traitsOf(person)))).toEqual(
      world.people.map(kindOf),
    )
    // Another seed picks others; a share of 0 none.
    const other = getWorld(4, { companies: 400, peoplePerCompany: 10 })
    const otherIds = new Set(
      other.people
        .filter((person) => moveOf(other, 0.05, person, traitsOf(person)) !== null)
        .map((p) => p.id),
    )
    const ids = world.people.filter((person) => kindOf(person) !== null).map((person) => person.id)
    expect(ids.filter((id) => otherIds.has(id)).length).toBeLessThan(ids.length / 2)
    expect(world.people.some((person) => moveOf(world, 0, person, traitsOf(person)) !== null)).toBe(false)
  })

  it('draw an email change only for someone with an address to change', () => {
    for (const person of byKind.get('email')!) expect(traitsOf(person).emailAddress).not.toBeNull()
  })

  it('answer as the world holds them first, then moved to another company with an address there', () => {
    const person = found('company')
    const first = enrichLead(ctx, leadOf(person), flags, never)
    const later = enrichLead(ctx, leadOf(person), flags, always)
    expect(first.row.company_domain).toBe(person.company.domain)
    expect(first.row.contact_email_address).toBe(traitsOf(person).emailAddress)
    expect(later.row.company_domain).not.toBe(person.company.domain)
    expect(later.row.company_name).not.toBe(first.row.company_name)
    expect(world.companyByDomain.get(later.row.company_domain!)).toBeDefined()
    expect(later.row.contact_email_address).toBe(
      `${first.row.contact_email_address!.split('@')[0]}@${later.row.company_domain}`,
    )
    // The same person: same contact id, name and title; the same statuses, so the same price.
    expect(later.row.contact_id).toBe(first.row.contact_id)
    expect(later.row.contact_full_name).toBe(first.row.contact_full_name)
    expect(later.row.contact_job_title).toBe(first.row.contact_job_title)
    expect(later.row.contact_email_address_status).toBe(first.row.contact_email_address_status)
    expect(later.cost).toBe(first.cost)
    expect([first.mover, later.mover]).toEqual([person.id, person.id])
    expect([first.later, later.later]).toEqual([false, true])
  })

  it('answer a title mover with another title at the same company', () => {
    const person = found('title')
    const first = enrichLead(ctx, leadOf(person), flags, never).row
    const later = enrichLead(ctx, leadOf(person), flags, always).row
    expect(later.contact_job_title).not.toBe(first.contact_job_title)
    expect(later.company_domain).toBe(first.company_domain)
    expect(later.contact_email_address).toBe(first.contact_email_address)
  })

  it('answer an email mover with another address at the same company', () => {
    const person = found('email')
    const first = enrichLead(ctx, leadOf(person), flags, never).row
    const later = enrichLead(ctx, leadOf(person), flags, always).row
    expect(later.contact_email_address).not.toBe(first.contact_email_address)
    expect(later.contact_email_address!.endsWith(`@${first.company_domain}`)).toBe(true)
    expect(later.contact_job_title).toBe(first.contact_job_title)
    expect(later.company_domain).toBe(first.company_domain)
  })

  it('answer everyone else the same however often they are asked, and are not remembered', () => {
    const person = found(null)
    const first = enrichLead(ctx, leadOf(person), flags, never)
    expect(enrichLead(ctx, leadOf(person), flags, always)).toEqual(first)
    expect(first.mover).toBeNull()
  })

  it('move in a lead search as in an enrichment, once the account was answered about them', () => {
    const person = found('company')
    const first = searchedLead(ctx, person, flags, never).row
    const later = searchedLead(ctx, person, flags, always).row
    expect(first.company_domain).toBe(person.company.domain)
    expect(later.company_domain).toBe(enrichLead(ctx, leadOf(person), flags, always).row.company_domain)
  })

  it('move the same way every time: a later answer is one answer, not a new draw', () => {
    const person = found('company')
    const a = moved(world, person, traitsOf(person), 'company')
    const b = moved(world, person, traitsOf(person), 'company')
    expect(a).toEqual(b)
  })
})

describe('the movers an account was answered about', () => {
  it('are kept per account and survive an export and import of the accounts', () => {
    const accounts = new Accounts(100, 100)
    const a = accounts.create({}).accountId
    const b = accounts.create({}).accountId
    accounts.noteAnswered(a, 42)
    expect(accounts.answeredBefore(a, 42)).toBe(true)
    expect(accounts.answeredBefore(b, 42)).toBe(false)
    expect(accounts.answeredBefore(a, 43)).toBe(false)
    const restored = new Accounts(100, 100)
    restored.importState(accounts.exportState())
    expect(restored.answeredBefore(a, 42)).toBe(true)
    expect(restored.answeredBefore(b, 42)).toBe(false)
  })
})
