import { type Command, Option } from 'commander'
import { generatedPassword, print, readStdin, withCli } from '../shared.js'

/** The password of `--password-stdin`, or a generated one that is printed once. */
async function chosenPassword(fromStdin: boolean | undefined): Promise<string> {
  return fromStdin ? readStdin() : generatedPassword()
}

/** `account create|invite|list|set-password`. */
export function addAccountCommands(program: Command): void {
  const account = program
    .command('account')
    .description('manage dashboard accounts and sign-up invites (PROFILER_SIGNUP=closed|invite)')
  addCreate(account)
  addInvite(account)
  addList(account)
  addSetPassword(account)
}

function addCreate(account: Command): void {
  account
    .command('create')
    .description('create a dashboard account; it owns a new tenant, or the one given with --tenant')
    .requiredOption('--email <email>', 'e-mail address (the sign-in name)')
    .option('--tenant <tenant>', 'an existing tenant (name or id) for the account, e.g. default')
    .option('--password-stdin', 'read the password from standard input; otherwise one is generated and printed once')
    .option('--json', 'machine-readable output')
    .action((opts: { email: string; tenant?: string; passwordStdin?: boolean; json?: boolean }) =>
      withCli(async ({ accounts }) => {
        const password = await chosenPassword(opts.passwordStdin)
        const created = await accounts.createAccount(opts.email, password, { tenant: opts.tenant })
        const value = {
          account_id: created.id,
          email: created.email,
          tenant_id: created.tenantId,
          tenant_name: created.tenantName,
          ...(opts.passwordStdin ? {} : { password }),
        }
        const shown = opts.passwordStdin ? '' : `\nPassword (shown once): ${password}`
        print(
          !!opts.json,
          value,
          () =>
            `Created account ${created.email} (${created.id}) for tenant ${created.tenantName} (${created.tenantId}).` +
            shown,
        )
      }),
    )
}

function addInvite(account: Command): void {
  account
    .command('invite')
    .description('create an invite code for sign-up (PROFILER_SIGNUP=invite); printed once')
    .option('--tenant <tenant>', 'the tenant (name or id) the new accounts join; default: each gets a new tenant')
    .addOption(new Option('--uses <n>', 'how many sign-ups the code allows').default('1'))
    .addOption(new Option('--expires-hours <h>', 'hours until the code expires').default('168'))
    .option('--json', 'machine-readable output')
    .action((opts: { tenant?: string; uses: string; expiresHours: string; json?: boolean }) =>
      withCli(async ({ accounts }) => {
        const invite = await accounts.createInvite({
          tenant: opts.tenant,
          uses: Number(opts.uses),
          expiresHours: Number(opts.expiresHours),
        })
        const value = {
          invite_code: invite.code,
          tenant_id: invite.tenantId,
          uses: invite.uses,
          expires_at: invite.expiresAt,
        }
        const signUps = `${invite.uses} sign-up${invite.uses === 1 ? '' : 's'}`
        const into = invite.tenantId ? `, into tenant ${invite.tenantId}` : ''
        print(
          !!opts.json,
          value,
          () => `Invite code (shown once; ${signUps}, until ${invite.expiresAt}${into}):\n  ${invite.code}`,
        )
      }),
    )
}

function addList(account: Command): void {
  account
    .command('list')
    .description('list dashboard accounts')
    .option('--json', 'machine-readable output')
    .action((opts: { json?: boolean }) =>
      withCli(async ({ accounts }) => {
        const all = await accounts.listAccounts()
        const lines = all.map((one) => `${one.email}\t${one.id}\ttenant ${one.tenantName}\t${one.createdAt}`)
        print(!!opts.json, all, () => lines.join('\n') || '(no accounts)')
      }),
    )
}

function addSetPassword(account: Command): void {
  account
    .command('set-password')
    .description("set an account's password (ends its sessions)")
    .requiredOption('--email <email>', 'the account')
    .option('--password-stdin', 'read the password from standard input; otherwise one is generated and printed once')
    .option('--json', 'machine-readable output')
    .action((opts: { email: string; passwordStdin?: boolean; json?: boolean }) =>
      withCli(async ({ accounts }) => {
        const password = await chosenPassword(opts.passwordStdin)
        const updated = await accounts.resetPassword(opts.email, password)
        const value = { account_id: updated.id, email: updated.email, ...(opts.passwordStdin ? {} : { password }) }
        const shown = opts.passwordStdin ? '' : `\nPassword (shown once): ${password}`
        print(!!opts.json, value, () => `Password of ${updated.email} set; its sessions have ended.` + shown)
      }),
    )
}
