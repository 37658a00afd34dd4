import { Command, CommanderError } from 'commander'
import { ServiceError } from '../engine/client/errors'
import type { GlobalOptions } from './context'
import { enrichCommand } from './commands/enrich'
import type { EnrichOptions } from './commands/enrich'
import { companyCommand, leadCommand } from './commands/lookup'
import type { CompanyLookupOptions, LeadLookupOptions } from './commands/lookup'
import { accountCommand, jobsCommand, sandboxCommand } from './commands/misc'
import { companiesCommand, leadsCommand } from './commands/search'
import type { CompaniesOptions, LeadsOptions } from './commands/search'
import { CliError, ExitCode, exitCodeForError } from './exit-codes'

const collect = (value: string, previous: string[]): string[] => [...previous, value]

function advice(error: ServiceError): string {
  switch (error.code) {
    case 'auth':
      return 'Check the API key (LEADKEEPER_API_KEY or --key-file).'
    case 'credits':
      return 'Top up the account, then try again.'
    case 'plan':
      return 'Upgrade the plan, or leave out the option it refused.'
    case 'not_found':
      return 'Nothing matched; check the identifiers.'
    case 'outcome_unknown':
      return 'Check the balance with `leadkeeper account` before trying again.'
    case 'network':
    case 'timeout':
      return 'Check the network and --base-url, then try again.'
    default:
      return 'Try again later; if it persists, check --base-url.'
  }
}

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command()
    .name('leadkeeper')
    .description('Enrich contact lists and search leads and companies through the enrichment service.')
    .option('--base-url <url>', 'service address including /api/v2 (or LEADKEEPER_BASE_URL)')
    .option(
      '--key-file <path>',
      'file holding the API key, mode 0600 (or LEADKEEPER_KEY_FILE; else LEADKEEPER_API_KEY)',
    )
    .option('--sandbox', 'start the embedded sandbox and use its demo key')
    .option(
      '--state-dir <dir>',
      'where jobs are recorded (default: .leadkeeper-state beside the output file)',
    )
    .option('--json', 'print a machine-readable summary on stdout')
    .option('--rate-limit <perMinute>', 'requests per minute for this key', '100')
    .option('--chunk-size <n>', 'leads per enrichment request (at most 100)')
    .option('--poll-timeout <seconds>', 'give up on a request still processing after this long', '300')
    .option('--time-scale <factor>', 'scale every service-side duration (for a time-scaled sandbox)')
    .exitOverride()
    .showHelpAfterError()

  const run =
    <A extends unknown[]>(action: (...args: A) => Promise<number> | number) =>
    async (...args: A): Promise<void> => {
      setExit(await action(...args))
    }
  const globals = (): GlobalOptions => program.opts<GlobalOptions>()

  program
    .command('enrich <input>')
    .description('enrich the rows of a CSV file or Excel workbook; running it again resumes the same job')
    .requiredOption('-o, --output <file>', 'output file: CSV, or an Excel workbook when it ends in .xlsx')
    .option(
      '--sheet <name>',
      'the sheet of an Excel workbook to read (default: the first that holds a table)',
    )
    .option(
      '--header-row <n>',
      'the row that names the columns (its number in a spreadsheet); the rows above it are left out',
    )
    .option('--email', 'find email addresses (the default when neither --email nor --phone is given)')
    .option('--phone', 'find phone numbers')
    .option('--catch-all', 'verify catch-all addresses')
    .option('--max-credits <n>', 'stop submitting before this many credits could be passed')
    .option('--on-uncertain <ask|skip|resubmit>', 'what to do with requests whose outcome is unknown', 'ask')
    .option(
      '--csv-for <spreadsheet|import>',
      'a CSV output for a spreadsheet (formulas neutralised) or for importing into another system (values as they are)',
      'spreadsheet',
    )
    .option('--map <field=column>', 'name the column of a field (repeatable)', collect, [])
    .action(run((input: string, options: EnrichOptions) => enrichCommand(input, options, globals())))

  program
    .command('leads')
    .description('search leads with filters')
    .requiredOption('--filters <file.json>', 'filters as JSON')
    .requiredOption('-o, --output <file>', 'output CSV')
    .option('--limit <n>')
    .option('--offset <n>')
    .option('--max-leads <n>')
    .option('--email', 'also find email addresses (charged)')
    .option('--phone', 'also find phone numbers (charged)')
    .option('--max-credits <n>', 'do not start the search if it could cost more')
    .action(run((options: LeadsOptions) => leadsCommand(options, globals())))

  program
    .command('companies')
    .description('search companies with filters, page by page')
    .requiredOption('--filters <file.json>', 'filters as JSON')
    .requiredOption('-o, --output <file>', 'output CSV')
    .option('--limit <n>', 'companies per page, 1 to 200', '100')
    .option('--pages <n>', 'pages to fetch (default 1); each page is charged')
    .option('--all', 'fetch every page')
    .option('--max-credits <n>', 'stop before a page could pass this many credits in all')
    .action(run((options: CompaniesOptions) => companiesCommand(options, globals())))

  program
    .command('company')
    .description('look one company up (free)')
    .option('--domain <domain>')
    .option('--network-url <url>')
    .action(run((options: CompanyLookupOptions) => companyCommand(options, globals())))

  program
    .command('lead')
    .description('look one person up (0.1 credit when found)')
    .option('--network-url <url>')
    .option('--first-name <name>')
    .option('--last-name <name>')
    .option('--domain <domain>')
    .action(run((options: LeadLookupOptions) => leadCommand(options, globals())))

  program
    .command('account')
    .description('show the balance (with --sandbox, the one saved in the state directory)')
    .action(run(() => accountCommand(globals())))
  program
    .command('jobs')
    .description('list the jobs in the state directory')
    .action(run(() => jobsCommand(globals())))
  program
    .command('sandbox')
    .description('start the sandbox and wait')
    .option('--port <port>', 'port (default: any free one)')
    .action(run((options: { port?: string }) => sandboxCommand(options, globals())))
  return program
}

export async function main(argv: string[]): Promise<number> {
  let code: number = ExitCode.done
  try {
    await buildProgram((value) => {
      code = value
    }).parseAsync(argv)
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? ExitCode.done : ExitCode.usage
    }
    if (error instanceof CliError) {
      process.stderr.write(`leadkeeper: ${error.message}\n`)
      return error.exitCode
    }
    if (error instanceof ServiceError) {
      process.stderr.write(`leadkeeper: ${error.message}\n${advice(error)}\n`)
      return exitCodeForError(error.code)
    }
    process.stderr.write(
      `leadkeeper: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    )
    return ExitCode.other
  }
  return code
}
