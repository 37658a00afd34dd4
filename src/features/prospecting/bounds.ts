/**
 * Bounds and defaults the interface leaves "not shown". These are the sandbox's documented choices
 * (docs/sandbox.md), used as the builder's defaults; a service with other bounds answers 422, which the
 * job reports as usual.
 */
export interface Range {
  min: number
  max: number
}

export const leadSearchBounds = {
  limit: { min: 1, max: 100 } as Range,
  offset: { min: 0, max: 10_000 } as Range,
  maxLeads: { min: 1, max: 1000 } as Range,
  /** What the service returns per request when `limit` is not sent. */
  defaultLimit: 25,
  /** What the service assumes when `max_leads` is not sent. */
  defaultMaxLeads: 1000,
}

export const companySearchBounds = {
  limit: { min: 1, max: 200 } as Range,
  offsetMin: 0,
  defaultLimit: 100,
}

/** Published prices (known-defaults.md) and the sandbox's price of a company search result. */
export const prices = {
  email: 1,
  phone: 10,
  leadProfile: 0.1,
  /** Not published by the service: the sandbox charges one credit per company returned. */
  companySearchResult: 1,
}

export function inRange(value: number, range: Range): boolean {
  return Number.isInteger(value) && value >= range.min && value <= range.max
}
