import { z } from 'zod'

/** Stable codes of every failure the client reports; callers switch on these, never on messages. */
export type ServiceErrorCode =
  | 'auth'
  | 'credits'
  | 'plan'
  | 'bad_request'
  | 'not_found'
  | 'unknown_request'
  | 'rejected'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'outcome_unknown'
  | 'invalid_response'
  | 'cancelled'

/**
 * Response schemas. Objects are loose: fields the service adds later are kept, not rejected.
 * Only what the engine relies on is required; everything else is optional and nullable because
 * the service sends null or omits values freely.
 */

const text = z.string().nullish()
const int = z.number().nullish()
const strings = z.array(z.string()).nullish()

/** Credits come as integers on some endpoints and as decimal strings on company search. */
export const credits = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/, 'expected a decimal number')
    .transform(Number),
])

export const customFieldsSchema = z
  .union([
    z.array(z.looseObject({ name: z.string(), value: z.unknown(), position: z.number().optional() })),
    z.record(z.string(), z.unknown()),
  ])
  .transform((value) =>
    Array.isArray(value)
      ? value.map((field, index) => ({
          name: field.name,
          value: field.value == null ? '' : String(field.value),
          position: field.position ?? index,
        }))
      : Object.entries(value).map(([name, v], position) => ({
          name,
          value: v == null ? '' : String(v),
          position,
        })),
  )
export type CustomField = z.output<typeof customFieldsSchema>[number]

const contactFields = {
  contact_id: int,
  contact_first_name: text,
  contact_last_name: text,
  contact_full_name: text,
  contact_job_title: text,
  contact_seniority: text,
  contact_industry: text,
  contact_network_profile_url: text,
  contact_location_continent: text,
  contact_location_country: text,
  contact_location_state: text,
  contact_location_city: text,
  company_name: text,
  company_domain: text,
  company_description: text,
  company_network_url: text,
  company_industry: text,
  company_type: text,
  company_keywords: strings,
  company_founded_year: int,
  company_employees_range_start: int,
  company_employees_range_end: int,
}

export const enrichedLeadSchema = z.looseObject({
  ...contactFields,
  enriched: z.boolean(),
  custom_fields: customFieldsSchema,
  contact_network_headline: text,
  contact_email_address: text,
  contact_email_address_status: text,
  contact_email_address_provider: text,
  email_provider: text,
  contact_phone_number: text,
  contact_phone_number_provider: text,
  company_headquarters_city: text,
  company_headquarters_country: text,
})
export type EnrichedLead = z.output<typeof enrichedLeadSchema>

const pending = {
  id: z.string(),
  message: text,
  credits_consumed: credits.nullish(),
  credits_left: credits.nullish(),
}

export const enrichmentResultSchema = z.discriminatedUnion('status', [
  z.looseObject({ ...pending, status: z.enum(['processing', 'on_hold', 'not_started']) }),
  z.looseObject({
    ...pending,
    status: z.literal('terminated'),
    summary: z.looseObject({}).nullish(),
    data: z.array(enrichedLeadSchema),
  }),
])
export type EnrichmentResult = z.output<typeof enrichmentResultSchema>

export const leadRowSchema = z.looseObject({
  ...contactFields,
  contact_headline: text,
  contact_gender: text,
  contact_email_address: text,
  contact_email_address_status: text,
  contact_email_address_provider: text,
  contact_phone_number: text,
  company_head_quarters_city: text,
  company_head_quarters_country: text,
  custom_fields: customFieldsSchema.nullish(),
})
export type LeadRow = z.output<typeof leadRowSchema>

export const leadSearchResultSchema = z.discriminatedUnion('status', [
  z.looseObject({ ...pending, status: z.enum(['not_started', 'processing', 'on_hold']) }),
  z.looseObject({
    ...pending,
    status: z.literal('terminated'),
    summary: z.looseObject({ leads_found: int }).nullish(),
    leads: z.array(leadRowSchema),
  }),
])
export type LeadSearchResult = z.output<typeof leadSearchResultSchema>

export const companyRowSchema = z.looseObject({
  company_id: int,
  company_name: text,
  company_domain: text,
  company_website: text,
  company_network_url: text,
  company_fundingdb_url: text,
  company_logo_url: text,
  company_industry: text,
  company_type: text,
  company_description: text,
  company_founded_year: int,
  company_keywords: strings,
  company_technologies: strings,
  company_employees_range_start: int,
  company_employees_range_end: int,
  company_employees_count: int,
  company_employees_by_department: z.record(z.string(), z.number().nullable()).nullish(),
  company_size_range: text,
  company_revenue_range: text,
  company_locations_count: int,
  company_last_funding_round_name: text,
  company_last_amount_raised_usd: int,
  company_total_amount_raised_usd: int,
  company_last_funding_date: text,
  company_head_quarters_city: text,
  company_head_quarters_state: text,
  company_head_quarters_country: text,
  company_head_quarters_address: text,
  company_active_job_postings_count: int,
})
export type CompanyRow = z.output<typeof companyRowSchema>

export const companySearchResultSchema = z.discriminatedUnion('status', [
  z.looseObject({ ...pending, status: z.enum(['not_started', 'processing', 'on_hold']) }),
  z.looseObject({
    ...pending,
    status: z.literal('terminated'),
    summary: z.looseObject({ companies_found: z.number(), limit: int, offset: int }),
    companies: z.array(companyRowSchema),
  }),
])
export type CompanySearchResult = z.output<typeof companySearchResultSchema>

export const companyProfileSchema = z.looseObject({
  company_id: int,
  company_name: text,
  company_description: text,
  company_industry: text,
  company_domain: text,
  company_website: text,
  company_network_url: text,
  company_type: text,
  company_founded_year: int,
  company_employees_number: int,
  company_employees_range_start: int,
  company_employees_range_end: int,
  company_headquarters: text,
  company_head_quarters_city: text,
  company_head_quarters_country: text,
  company_address_city: text,
  company_address_state: text,
  company_address_country: text,
  company_address_zipcode: text,
  company_keywords: strings,
})
export type CompanyProfile = z.output<typeof companyProfileSchema>

export const leadProfileSchema = z.looseObject({
  ...contactFields,
  contact_network_headline: text,
  company_headquarters_city: text,
  company_headquarters_country: text,
})
export type LeadProfile = z.output<typeof leadProfileSchema>

export const profileResponseSchema = <T extends z.ZodType>(data: T) =>
  z.looseObject({ success: z.boolean().optional(), data })

export const enrichmentCreatedSchema = z.looseObject({
  success: z.boolean().optional(),
  id: z.string().min(1),
})
export const searchCreatedSchema = z.looseObject({
  success: z.boolean().optional(),
  request_id: z.string().min(1),
})

export const accountSchema = z.looseObject({
  success: z.boolean().optional(),
  credits_left: credits,
  email: z.string(),
})
export type Account = z.output<typeof accountSchema>

/** "credits_left: expected number, received undefined" — names the field so a bad payload is diagnosable. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(body)'}: ${issue.message}`)
    .join('; ')
}
