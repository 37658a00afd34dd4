/**
 * What a column header names, shared by the import dialog and the command line so that a file maps
 * the same way in both.
 */
export const headerFields = [
  'first_name',
  'last_name',
  'full_name',
  'company_domain',
  'company_name',
  'website',
  'email',
  'network_url',
] as const

export type HeaderField = (typeof headerFields)[number]

/**
 * Header spellings per field, compared without case, accents, spaces or punctuation
 * ("E-mail" = "email", "Prénom" = "prenom"). English, French, German, Spanish, Dutch, Italian,
 * Portuguese.
 */
const aliases: Record<HeaderField, string[]> = {
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

const fieldByAlias = new Map<string, HeaderField>()
for (const field of headerFields) for (const alias of aliases[field]) fieldByAlias.set(alias, field)

export function canonicalHeader(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\(\d+\)$/, '')
    .replace(/[^a-z0-9]/g, '')
}

/** The field a header names, if it is one we know. */
export function headerField(header: string): HeaderField | null {
  return fieldByAlias.get(canonicalHeader(header)) ?? null
}
