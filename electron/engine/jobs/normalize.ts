import type { DataKind } from '../../domain/kinds'
import {
  isSendable,
  leadOf,
  personKeyOf,
  serviceLeadOf,
  type MappedFields,
  type ServiceLead,
} from '../../domain/person'

export { normalizeDomain } from '../../domain/normalize'

/** Input row of an enrichment job. `key` is the caller's stable id of the row. */
export interface EnrichmentRow extends MappedFields {
  key: string
  /** Rows the caller already has results for are not sent at all. */
  known?: boolean
  /** What to ask the service for this row; the job's options when absent. */
  kinds?: DataKind[]
}

/** A lead as the service receives it, minus `custom_fields`. */
export type NormalizedLead = ServiceLead

/** What the service gets for a row, or undefined when the row cannot identify anyone. */
export function normalizeRow(row: EnrichmentRow): NormalizedLead | undefined {
  const lead = leadOf(row)
  return isSendable(lead) ? serviceLeadOf(lead) : undefined
}

/** A row's lead and identity together, its fields read once (a plan reads every row of a list). */
export function planLeadOf(row: EnrichmentRow): { lead: NormalizedLead | undefined; identity: string } {
  const lead = leadOf(row)
  return { lead: isSendable(lead) ? serviceLeadOf(lead) : undefined, identity: personKeyOf(lead) }
}

/** Two rows with the same identity are the same person (the import's rule for duplicates). */
export function identityOfRow(row: EnrichmentRow): string {
  return personKeyOf(leadOf(row))
}
