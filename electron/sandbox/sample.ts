import { contactIdFor, resolvePerson } from './contacts'
import { matchPeople, parseLeadFilters } from './filters'
import { rngFor } from './world/random'
import { titleCase } from './world/text'
import type { Company, Person, World } from './world/types'

/** A lead search the sample goes with: the people it returns are in the sample too. */
export interface SampleSearch {
  label: string
  filters: Record<string, unknown>
  limit: number
  email: boolean
}

/** "Try a sample list": a CSV of the world's people, and the search that makes some of them known. */
export interface SandboxSample {
  fileName: string
  csv: string
  rows: number
  search: SampleSearch
}

const header = ['First Name', 'Last Name', 'Company', 'Website', 'Job Title', 'City', 'Notes']

interface SampleRow {
  first: string
  last: string
  company: string
  website: string
  title: string
  city: string
  notes: string
}

/** How many rows of each kind; together a few hundred, enough for every facet to have several values. */
const counts = { worldPeople: 240, invented: 40, repeats: 30, incomplete: 6, personal: 4 } as const
/** Companies whose people the sample's search returns, all of them: the library knows them after it. */
const searchedCompanies = 2

const csvField = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)

function rowOf(person: Person, notes = ''): SampleRow {
  return {
    first: titleCase(person.firstName),
    last: titleCase(person.lastName),
    company: titleCase(person.company.name),
    website: person.company.domain,
    title: titleCase(person.jobTitle),
    city: person.location.city,
    notes,
  }
}

/** The same person written as people do: shouted, with spaces, the website in full. */
function rewritten(row: SampleRow): SampleRow {
  return {
    ...row,
    first: row.first.toUpperCase(),
    last: ` ${row.last.toLowerCase()} `,
    website: `https://www.${row.website}/about`,
  }
}

/**
 * The sample list of the world of `seed`: people of the world (most of them found), a few invented
 * at the world's companies (some nobody), the people of two companies a lead search of the sample
 * returns (known to the library once it ran), repeats of earlier rows written differently, rows
 * missing what the service needs and rows at a personal mail domain. The same world gives the
 * same sample. See docs/sandbox.md.
 */
export function sandboxSample(world: World): SandboxSample {
  const rng = rngFor(world.seed, 'sample')
  // Companies of a handful of people, so the search returns every one of them in one page.
  const staff = new Map<Company, number>()
  for (const person of world.people) staff.set(person.company, (staff.get(person.company) ?? 0) + 1)
  const small = world.companies.filter((company) => {
    const people = staff.get(company) ?? 0
    return people >= 4 && people <= 8
  })
  const chosen: Company[] = rng.sample(small.slice(0, 200), searchedCompanies)
  const filters = { company: { include: chosen.map((company) => company.domain) } }
  const searched = matchPeople(world.people, parseLeadFilters(filters))
  const searchedIds = new Set(searched.map((person) => person.id))

  const others = rng.sample(
    world.people.filter((person) => !searchedIds.has(person.id)),
    counts.worldPeople,
  )
  const rows: SampleRow[] = [
    ...others.map((person) => rowOf(person)),
    ...searched.map((person) => rowOf(person, 'Found by the sample search: your library knows them')),
  ]
  for (let at = 0; at < counts.invented; at++) {
    const company = rng.pick(world.companies)
    const first = rng.pick(others).firstName
    const last = rng.pick(others).lastName
    // Not a person of the world: the sandbox makes most such people up and finds nobody for the rest.
    const invented = resolvePerson(world, first, last, company.domain)
    rows.push({
      first: titleCase(first),
      last: titleCase(last),
      company: titleCase(company.name),
      website: company.domain,
      title: invented ? titleCase(invented.jobTitle) : '',
      city: '',
      notes: contactIdFor(world, first, last, company.domain) % 2 === 0 ? 'Met at a trade fair' : '',
    })
  }
  for (let at = 0; at < counts.personal; at++) {
    const person = rng.pick(others)
    rows.push({ ...rowOf(person), website: 'gmail.com', notes: 'A personal mail domain: not a company' })
  }
  for (let at = 0; at < counts.incomplete; at++) {
    const person = rng.pick(others)
    rows.push(
      at % 2 === 0
        ? { ...rowOf(person), website: '', company: '', notes: 'No company: the service cannot look them up' }
        : { ...rowOf(person), last: '', notes: 'No last name: the service cannot look them up' },
    )
  }
  const shuffled = rng.sample(rows, rows.length)
  // Repeats come after the row they repeat, as a list pasted together from two sources would have them.
  const repeatable = shuffled.slice(0, Math.floor(shuffled.length * 0.7)).filter((row) => row.website)
  const repeatOf = new Map<SampleRow, SampleRow>()
  for (const original of rng.sample(repeatable, counts.repeats)) {
    const at = shuffled.indexOf(original)
    const repeat = rewritten(original)
    repeatOf.set(repeat, original)
    shuffled.splice(at + 1 + Math.floor(rng.next() * (shuffled.length - at)), 0, repeat)
  }
  // Numbered once every repeat is in place, as the list numbers its rows (from 1, the header aside).
  for (const [repeat, original] of repeatOf) {
    repeat.notes = `Same person as row ${shuffled.indexOf(original) + 1}, written differently`
  }
  const lines = [header, ...shuffled.map((row) => Object.values(row))].map((fields) =>
    fields.map(csvField).join(','),
  )
  return {
    fileName: 'sandbox-sample.csv',
    csv: `${lines.join('\r\n')}\r\n`,
    rows: shuffled.length,
    search: {
      label: `Sample: people at ${chosen.map((company) => company.domain).join(', ')}`,
      filters,
      limit: 25,
      email: true,
    },
  }
}
