import type { Rng } from './random'
import { taxonomies } from './taxonomies'
import type { Place } from './types'

export function randomPlace(rng: Rng): Place {
  const country = rng.pick(taxonomies.locations)
  const state = rng.pick(country.states)
  return {
    continent: country.continent,
    country: country.country,
    state: state.state,
    city: rng.pick(state.cities),
    phonePrefix: country.phonePrefix,
  }
}

export function phoneNumber(rng: Rng, place: Place): string {
  let digits = ''
  for (let i = 0; i < 9; i++) digits += String(rng.int(i === 0 ? 2 : 0, 9))
  return `${place.phonePrefix}${digits}`
}

export function placeMatches(place: Place, wanted: string): boolean {
  const value = wanted.trim().toLowerCase()
  return [place.city, place.state, place.country].some((part) => part.toLowerCase() === value)
}
