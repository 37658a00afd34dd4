import type { LeadLookup } from '../../engine/client/client'
import type { GlobalOptions } from '../context'
import { openContext } from '../context'
import { CliError, ExitCode } from '../exit-codes'

export interface CompanyLookupOptions {
  domain?: string
  networkUrl?: string
}

export interface LeadLookupOptions {
  networkUrl?: string
  firstName?: string
  lastName?: string
  domain?: string
}

function print(value: unknown, json: boolean): void {
  if (json) {
    process.stdout.write(JSON.stringify(value) + '\n')
    return
  }
  const lines = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`)
  process.stdout.write(lines.join('\n') + '\n')
}

export async function companyCommand(options: CompanyLookupOptions, global: GlobalOptions): Promise<number> {
  if (!options.domain && !options.networkUrl) {
    throw new CliError('Give --domain D or --network-url U (or both).', ExitCode.usage)
  }
  const context = await openContext(global)
  try {
    const profile = await context.client.companyProfile({
      ...(options.domain ? { company_domain: options.domain.trim().toLowerCase() } : {}),
      ...(options.networkUrl ? { company_network_url: options.networkUrl } : {}),
    })
    print(profile, global.json === true)
    return ExitCode.done
  } finally {
    await context.close()
  }
}

export async function leadCommand(options: LeadLookupOptions, global: GlobalOptions): Promise<number> {
  let lookup: LeadLookup
  if (options.networkUrl) lookup = { network_url: options.networkUrl }
  else if (options.firstName && options.lastName && options.domain) {
    lookup = { first_name: options.firstName, last_name: options.lastName, company_domain: options.domain }
  } else {
    throw new CliError(
      'Give --network-url U, or all three of --first-name, --last-name and --domain.',
      ExitCode.usage,
    )
  }
  const context = await openContext(global)
  try {
    print(await context.client.leadProfile(lookup), global.json === true)
    return ExitCode.done
  } finally {
    await context.close()
  }
}
