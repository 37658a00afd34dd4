import { describe, expect, it } from 'vitest'
import {
  companySearchBody,
  companySearchInput,
  leadSearchBody,
  leadSearchInput,
} from '@/features/prospecting/request'

describe('lead search request', () => {
  it('becomes the body the service wants, snake_case, nothing absent sent', () => {
    const search = leadSearchInput(
      {
        company_industry: { include: ['Banking'], exclude: ['Accounting'] },
        job_title: { include: ['Head of Sales'], exclude: [] },
        company: { include: ['Acme.COM'], exclude: [] },
      },
      {
        limit: 50,
        offset: 100,
        maxLeads: 40,
        email: true,
        phone: true,
        webhook: ' https://hooks.example.com/x ',
      },
    )
    expect(search).toEqual({
      filters: {
        company_industry: { include: ['Banking'], exclude: ['Accounting'] },
        company: { include: ['acme.com'], exclude: [] },
        job_title: { include: ['Head of Sales'], exclude: [] },
      },
      limit: 50,
      offset: 100,
      maxLeads: 40,
      email: true,
      phone: true,
      webhook: 'https://hooks.example.com/x',
    })
    expect(leadSearchBody(search)).toEqual({
      filters: search.filters,
      limit: 50,
      offset: 100,
      max_leads: 40,
      enrich_email_address: true,
      enrich_phone_number: true,
      webhook: 'https://hooks.example.com/x',
    })
  })

  it('leaves out options the user did not set and enrichment that is off', () => {
    const search = leadSearchInput(
      { is_b2b: true },
      { limit: null, offset: null, maxLeads: null, email: false, phone: false, webhook: '  ' },
    )
    expect(search).toEqual({ filters: { is_b2b: true } })
    expect(leadSearchBody(search)).toEqual({ filters: { is_b2b: true } })
  })
})

describe('company search request', () => {
  it('keeps limit constant and raises offset by limit per page', () => {
    const search = companySearchInput(
      { company_industry: { include: ['Banking'], exclude: ['x'] }, company_headcount_min: 10 },
      { limit: 20, offset: 0, pages: 3 },
    )
    expect(search).toEqual({
      filters: { company_industry: { include: ['Banking'] }, company_headcount_min: 10 },
      limit: 20,
      offset: 0,
      pages: 3,
    })
    expect(companySearchBody(search, 0)).toEqual({ filters: search.filters, limit: 20, offset: 0 })
    expect(companySearchBody(search, 2)).toEqual({ filters: search.filters, limit: 20, offset: 40 })
    expect(companySearchBody({ filters: { is_b2b: true } })).toEqual({
      filters: { is_b2b: true },
      limit: 100,
      offset: 0,
    })
  })
})
