import type { Command } from 'commander'
import { print, withCli } from '../shared.js'

/** `tenant create` and `tenant list`. */
export function addTenantCommands(program: Command): void {
  const tenant = program.command('tenant').description('manage tenants')
  tenant
    .command('create <name>')
    .description('create a tenant')
    .option('--json', 'machine-readable output')
    .action((name: string, opts: { json?: boolean }) =>
      withCli(async ({ tenants }) => {
        const created = await tenants.createTenant(name)
        const value = { tenant_id: created.id, name: created.name, created_at: created.created_at }
        print(!!opts.json, value, () => `Created tenant ${created.name} (${created.id})`)
      }),
    )
  tenant
    .command('list')
    .description('list tenants')
    .option('--json', 'machine-readable output')
    .action((opts: { json?: boolean }) =>
      withCli(async ({ tenants }) => {
        const all = await tenants.listTenants()
        const lines = all.map((one) => `${one.id}\t${one.name}\t${one.created_at}`)
        print(!!opts.json, all, () => lines.join('\n') || '(no tenants)')
      }),
    )
}
