import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { AppError } from '@shared/result'
import { invoke } from '@/bridge'
import { libraryOf } from '@/db/library-client'
import {
  companyLookupInput,
  leadLookupInput,
  type CompanyLookupForm,
  type LeadLookupForm,
} from '@/stores/lookup-form'
import { useAccountStore } from './account'

export type LookupKind = 'company' | 'lead'

/** The outcome of one lookup: a profile, a friendly "not found", or another failure. */
export type LookupOutcome =
  | { kind: LookupKind; status: 'found'; profile: Record<string, unknown>; query: string }
  | { kind: LookupKind; status: 'not_found'; query: string }
  | { kind: LookupKind; status: 'error'; error: AppError; query: string }

/** Synchronous profile lookups; every profile found goes to the library. */
export const useLookupsStore = defineStore('lookups', () => {
  const company = shallowRef<LookupOutcome | null>(null)
  const lead = shallowRef<LookupOutcome | null>(null)
  const busy = ref<LookupKind | null>(null)
  // What the user typed, kept with the outcome it led to: a visit to the profile's company or
  // person page and back finds both as they were.
  const companyForm = ref<CompanyLookupForm>({ domain: '', networkUrl: '' })
  const leadForm = ref<LeadLookupForm>({
    networkUrl: '',
    firstName: '',
    lastName: '',
    domain: '',
    company: '',
  })

  async function lookupCompany(form: CompanyLookupForm): Promise<LookupOutcome> {
    const input = companyLookupInput(form)
    const query = input.company_network_url ?? input.company_domain ?? ''
    busy.value = 'company'
    try {
      const result = await invoke('lookup/company', input)
      const outcome = await settle('company', query, result)
      company.value = outcome
      return outcome
    } finally {
      busy.value = null
    }
  }

  async function lookupLead(form: LeadLookupForm): Promise<LookupOutcome> {
    const input = leadLookupInput(form)
    const query =
      'network_url' in input
        ? input.network_url
        : `${input.first_name} ${input.last_name} @ ${input.company_domain}`
    busy.value = 'lead'
    try {
      const result = await invoke('lookup/lead', input)
      const outcome = await settle('lead', query, result)
      lead.value = outcome
      // A profile found costs 0.1 credit; a refusal for credits is worth showing the balance too.
      void useAccountStore().refresh()
      return outcome
    } finally {
      busy.value = null
    }
  }

  async function settle(
    kind: LookupKind,
    query: string,
    result: { ok: true; data: unknown } | { ok: false; error: AppError },
  ): Promise<LookupOutcome> {
    if (!result.ok) {
      return result.error.code === 'not_found'
        ? { kind, status: 'not_found', query }
        : { kind, status: 'error', error: result.error, query }
    }
    const profile = result.data as Record<string, unknown>
    const source = {
      kind: 'lookup' as const,
      id: `lookup-${crypto.randomUUID()}`,
      label: `${kind === 'lead' ? 'Lead' : 'Company'} lookup: ${query}`,
      at: Date.now(),
    }
    if (kind === 'lead') await libraryOf().upsertContacts([profile], source)
    await libraryOf().upsertCompanies([profile], source)
    return { kind, status: 'found', profile, query }
  }

  return { companyForm, leadForm, company, lead, busy, lookupCompany, lookupLead }
})
