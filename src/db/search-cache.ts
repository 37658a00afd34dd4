import type { Provenance } from '@/db/schema'
import { upsertCompanies, upsertContacts } from '@/db/library-ingest'

/** Every lead found goes to the library as a contact (with its company); every company as a company. */
export async function cacheInLibrary(
  kind: 'lead' | 'company',
  payloads: Record<string, unknown>[],
  source: Provenance,
): Promise<void> {
  if (payloads.length === 0) return
  if (kind === 'lead') await upsertContacts(payloads, source)
  await upsertCompanies(payloads, source)
}
