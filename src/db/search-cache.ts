import type { Provenance } from '@/db/records'
import { libraryOf } from '@/db/library-client'

/** Every lead found goes to the library as a contact (with its company); every company as a company. */
export async function cacheInLibrary(
  kind: 'lead' | 'company',
  payloads: Record<string, unknown>[],
  source: Provenance,
): Promise<void> {
  if (payloads.length === 0) return
  if (kind === 'lead') await libraryOf().upsertContacts(payloads, source)
  await libraryOf().upsertCompanies(payloads, source)
}
