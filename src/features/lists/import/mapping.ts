import type { ColumnMapping } from '@/db/schema'
import { mappedFieldNames, normalizeDomain, isWellFormedDomain, type MappedField } from './rules'

export const fieldLabels: Record<MappedField, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  full_name: 'Full name',
  company_domain: 'Company domain',
  company_name: 'Company name',
  website: 'Website',
  email: 'Email',
  network_url: 'Network profile URL',
}

/**
 * Header spellings per field, compared without case, accents, spaces or punctuation
 * ("E-mail" = "email", "Prénom" = "prenom"). English, French, German, Spanish, Dutch, Italian,
 * Portuguese.
 */
const aliases: Record<MappedField, string[]> = {
  first_name: [
    'firstname',
    'first',
    'fname',
    'givenname',
    'forename',
    'contactfirstname',
    'prenom',
    'vorname',
    'nombre',
    'primernombre',
    'voornaam',
    'nome',
    'primeironome',
  ],
  last_name: [
    'lastname',
    'last',
    'lname',
    'surname',
    'familyname',
    'contactlastname',
    'nom',
    'nomdefamille',
    'nachname',
    'familienname',
    'apellido',
    'apellidos',
    'achternaam',
    'cognome',
    'sobrenome',
    'apelido',
  ],
  full_name: [
    'fullname',
    'name',
    'contactname',
    'contact',
    'person',
    'personname',
    'nomcomplet',
    'nomprenom',
    'prenomnom',
    'vollstandigername',
    'vollername',
    'nombrecompleto',
    'volledigenaam',
    'naam',
    'nomecompleto',
  ],
  company_domain: [
    'domain',
    'companydomain',
    'domainname',
    'emaildomain',
    'websitedomain',
    'domaine',
    'nomdedomaine',
    'domaineentreprise',
    'firmendomain',
    'dominio',
    'domein',
    'bedrijfsdomein',
  ],
  company_name: [
    'company',
    'companyname',
    'organization',
    'organisation',
    'organizationname',
    'employer',
    'account',
    'accountname',
    'business',
    'entreprise',
    'societe',
    'nomentreprise',
    'raisonsociale',
    'firma',
    'firmenname',
    'unternehmen',
    'arbeitgeber',
    'empresa',
    'nombreempresa',
    'compania',
    'bedrijf',
    'bedrijfsnaam',
    'organisatie',
    'azienda',
    'societa',
  ],
  website: [
    'website',
    'companywebsite',
    'web',
    'url',
    'site',
    'websiteurl',
    'companyurl',
    'homepage',
    'siteweb',
    'siteinternet',
    'webseite',
    'internetseite',
    'homepageurl',
    'sitioweb',
    'paginaweb',
    'webpagina',
    'sitoweb',
  ],
  email: [
    'email',
    'emailaddress',
    'mail',
    'workemail',
    'businessemail',
    'courriel',
    'adressemail',
    'adresseemail',
    'emailadresse',
    'correo',
    'correoelectronico',
    'emailadres',
    'posta',
    'indirizzoemail',
  ],
  network_url: [
    'linkedin',
    'linkedinurl',
    'linkedinprofile',
    'linkedinprofileurl',
    'profileurl',
    'profile',
    'networkurl',
    'networkprofileurl',
    'personlinkedinurl',
    'contactlinkedinurl',
    'profillinkedin',
    'perfillinkedin',
    'linkedinprofiel',
  ],
}

const fieldByAlias = new Map<string, MappedField>()
for (const field of mappedFieldNames) for (const alias of aliases[field]) fieldByAlias.set(alias, field)

function canonical(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\(\d+\)$/, '')
    .replace(/[^a-z0-9]/g, '')
}

/** The field a header names, if it is one we know. */
export function headerField(header: string): MappedField | null {
  return fieldByAlias.get(canonical(header)) ?? null
}

const valueKinds: { field: MappedField; test: (value: string) => boolean }[] = [
  { field: 'network_url', test: (value) => /linkedin\.com\/(in|pub)\//i.test(value) },
  { field: 'email', test: (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) },
  { field: 'website', test: (value) => /^(https?:\/\/|www\.)/i.test(value) },
  {
    field: 'company_domain',
    test: (value) => /^[^\s/@]+$/.test(value) && isWellFormedDomain(normalizeDomain(value)),
  },
]

/** For columns whose header says nothing: what most of their sample values look like. */
function valueField(values: string[]): MappedField | null {
  const filled = values.map((value) => value.trim()).filter(Boolean)
  if (filled.length === 0) return null
  for (const { field, test } of valueKinds) {
    if (filled.filter(test).length >= filled.length * 0.8) return field
  }
  return null
}

/**
 * Suggests which column feeds each field: by header first, then by the look of the values for
 * columns the headers leave unexplained. The first column wins when two claim the same field.
 */
export function suggestMapping(columns: string[], sample: string[][]): ColumnMapping {
  const mapping: ColumnMapping = {}
  columns.forEach((column, index) => {
    const field = headerField(column)
    if (field && mapping[field] === undefined) mapping[field] = index
  })
  const claimed = new Set(Object.values(mapping))
  columns.forEach((_, index) => {
    if (claimed.has(index)) return
    const field = valueField(sample.map((row) => row[index] ?? ''))
    if (field && mapping[field] === undefined) mapping[field] = index
  })
  return mapping
}

/** The key under which a mapping is remembered for files with the same headers. */
export function mappingSignature(columns: string[]): string {
  return columns.map((column) => column.trim().toLowerCase()).join('\u0001')
}

/** Drops fields pointing past the columns, so a saved mapping never reads a cell that is not there. */
export function fitMapping(mapping: ColumnMapping, width: number): ColumnMapping {
  const fitted: ColumnMapping = {}
  for (const field of mappedFieldNames) {
    const column = mapping[field]
    if (column !== undefined && Number.isInteger(column) && column >= 0 && column < width)
      fitted[field] = column
  }
  return fitted
}
