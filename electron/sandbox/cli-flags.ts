import { Command, InvalidArgumentError, Option } from 'commander'
import { DEFAULT_OPTIONS, type SandboxOptions } from './options'

/** Commander stores a parser's null as '', so `unlimited` travels as this marker until it becomes null. */
const UNLIMITED = Symbol('unlimited')

type FlagValue = string | number | boolean | typeof UNLIMITED
type OptionValue = string | number | boolean | null

interface CliFlag {
  /** Commander flag syntax, `--kebab-case <value>`. */
  flags: string
  option: keyof SandboxOptions
  description: string
  parse: (value: string) => FlagValue
}

function number(value: string): number {
  const parsed = Number(value)
  if (value.trim() === '' || !Number.isFinite(parsed)) throw new InvalidArgumentError('Not a number.')
  return parsed
}

function boolean(value: string): boolean {
  if (value === 'true') return true
  if (value === 'false') return false
  throw new InvalidArgumentError('Use true or false.')
}

/** A free-search quota: a count, or `unlimited` (null in `SandboxOptions`). */
function quota(value: string): number | typeof UNLIMITED {
  if (value === 'unlimited') return UNLIMITED
  const parsed = number(value)
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new InvalidArgumentError('Use a whole number from 0, or unlimited.')
  return parsed
}

const text = (value: string): string => value

/**
 * Every option of `SandboxOptions` as a flag of `npm run sandbox`, so each value the interface leaves
 * "not shown" can be changed without code. Flags are the kebab case of the option name, except
 * `--rate-limit` (kept from the first version of the command). `webhookRetryDelaysMs` has none: the
 * interface shows that schedule.
 */
export const CLI_FLAGS: CliFlag[] = [
  {
    flags: '--port <port>',
    option: 'port',
    description: 'port to listen on (0 = any free port)',
    parse: number,
  },
  {
    flags: '--time-scale <factor>',
    option: 'timeScale',
    description: 'multiplies every delay (0.01 = a hundred times faster)',
    parse: number,
  },
  { flags: '--seed <seed>', option: 'seed', description: 'seed of the synthetic world', parse: number },
  {
    flags: '--rate-limit <perMinute>',
    option: 'rateLimitPerMinute',
    description: 'requests per minute per key',
    parse: number,
  },
  {
    flags: '--invalid-key-limit <requests>',
    option: 'invalidKeyLimit',
    description: 'requests per window per IP with a missing, unknown or deactivated key',
    parse: number,
  },
  {
    flags: '--invalid-key-window-ms <ms>',
    option: 'invalidKeyWindowMs',
    description: 'window of --invalid-key-limit, before scaling',
    parse: number,
  },
  { flags: '--demo-key <key>', option: 'demoKey', description: 'key of the demo account', parse: text },
  {
    flags: '--demo-credits <credits>',
    option: 'demoCredits',
    description: 'starting balance of the demo account',
    parse: number,
  },
  {
    flags: '--default-credits <credits>',
    option: 'defaultCredits',
    description: 'starting balance of accounts created through /__sandbox',
    parse: number,
  },
  {
    flags: '--credits-per-email <credits>',
    option: 'creditsPerEmail',
    description: 'price of an email found',
    parse: number,
  },
  {
    flags: '--credits-per-phone <credits>',
    option: 'creditsPerPhone',
    description: 'price of a phone number found',
    parse: number,
  },
  {
    flags: '--credits-per-lead-profile <credits>',
    option: 'creditsPerLeadProfile',
    description: 'price of a lead profile found',
    parse: number,
  },
  {
    flags: '--credits-per-company <credits>',
    option: 'creditsPerCompany',
    description: 'price of each company a company search returns',
    parse: number,
  },
  {
    flags: '--lead-work-ms <ms>',
    option: 'leadWorkMs',
    description: 'time spent on each enriched lead, before scaling',
    parse: number,
  },
  {
    flags: '--search-queue-ms <ms>',
    option: 'searchQueueMs',
    description: 'time a lead or company search stays not_started, before scaling',
    parse: number,
  },
  {
    flags: '--search-work-ms <ms>',
    option: 'searchWorkMs',
    description: 'time a lead or company search stays processing, before scaling',
    parse: number,
  },
  {
    flags: '--lead-profile-ms <ms>',
    option: 'leadProfileMs',
    description: 'latency of a lead profile lookup, before scaling',
    parse: number,
  },
  {
    flags: '--webhook-timeout-ms <ms>',
    option: 'webhookTimeoutMs',
    description: 'time a webhook receiver has to answer (not scaled)',
    parse: number,
  },
  {
    flags: '--lead-search-min-limit <n>',
    option: 'leadSearchMinLimit',
    description: 'smallest lead search limit',
    parse: number,
  },
  {
    flags: '--lead-search-max-limit <n>',
    option: 'leadSearchMaxLimit',
    description: 'largest lead search limit',
    parse: number,
  },
  {
    flags: '--lead-search-default-limit <n>',
    option: 'leadSearchDefaultLimit',
    description: 'lead search limit when absent',
    parse: number,
  },
  {
    flags: '--lead-search-max-offset <n>',
    option: 'leadSearchMaxOffset',
    description: 'largest lead search offset',
    parse: number,
  },
  {
    flags: '--lead-search-max-leads <n>',
    option: 'leadSearchMaxLeads',
    description: 'largest lead search max_leads, also its default',
    parse: number,
  },
  {
    flags: '--default-enrich-email <bool>',
    option: 'defaultEnrichEmail',
    description: 'enrich_email_address of POST /async when absent',
    parse: boolean,
  },
  {
    flags: '--default-enrich-phone <bool>',
    option: 'defaultEnrichPhone',
    description: 'enrich_phone_number of POST /async when absent',
    parse: boolean,
  },
  {
    flags: '--default-verify-catch-all <bool>',
    option: 'defaultVerifyCatchAll',
    description: 'verify_catch_all of POST /async when absent',
    parse: boolean,
  },
  {
    flags: '--default-push-contact-individually <bool>',
    option: 'defaultPushContactIndividually',
    description: 'push_contact_individually of POST /async when absent',
    parse: boolean,
  },
  {
    flags: '--default-free-lead-searches <count>',
    option: 'defaultFreeLeadSearches',
    description: 'free lead searches of accounts created through /__sandbox (or unlimited)',
    parse: quota,
  },
  {
    flags: '--default-free-company-searches <count>',
    option: 'defaultFreeCompanySearches',
    description: 'free company searches of accounts created through /__sandbox (or unlimited)',
    parse: quota,
  },
  {
    flags: '--world-companies <count>',
    option: 'worldCompanies',
    description: 'companies in the synthetic world',
    parse: number,
  },
  {
    flags: '--world-people-per-company <count>',
    option: 'worldPeoplePerCompany',
    description: 'average people per world company',
    parse: number,
  },
  {
    flags: '--mover-share <share>',
    option: 'moverShare',
    description: 'share of people (0 to 1) whose later answers differ: another company, title or email',
    parse: number,
  },
  {
    flags: '--log-limit <entries>',
    option: 'logLimit',
    description: 'entries kept in each control log',
    parse: number,
  },
  {
    flags: '--log-byte-limit <bytes>',
    option: 'logByteLimit',
    description: 'bytes the request log may hold, bodies included',
    parse: number,
  },
  {
    flags: '--state-dir <dir>',
    option: 'stateDir',
    description: 'keep accounts and requests in <dir>/sandbox-state.json across restarts',
    parse: text,
  },
]

/** The command did not always listen on any free port: 8787 stays its default. */
const CLI_DEFAULT_PORT = 8787

/** The `npm run sandbox` command; `parseSandboxArgs` reads its options. */
export function sandboxCommand(): Command {
  const program = new Command()
    .name('leadkeeper-sandbox')
    .description('Simulated contact-enrichment service on 127.0.0.1, with synthetic data')
  for (const flag of CLI_FLAGS) {
    const fallback = flag.option === 'port' ? CLI_DEFAULT_PORT : DEFAULT_OPTIONS[flag.option]
    const option = new Option(flag.flags, flag.description).argParser(flag.parse)
    program.addOption(fallback === null ? option : option.default(fallback))
  }
  return program
}

/** Options named on the command line, keyed by their `SandboxOptions` name. */
export function parseSandboxArgs(program: Command, argv: readonly string[]): SandboxOptions {
  program.parse(argv, { from: 'user' })
  const values = program.opts<Record<string, FlagValue | undefined>>()
  const options: Record<string, OptionValue> = {}
  for (const flag of CLI_FLAGS) {
    const value = values[new Option(flag.flags).attributeName()]
    if (value !== undefined) options[flag.option] = value === UNLIMITED ? null : value
  }
  return options as SandboxOptions
}
