// One statement per tenant for the statements that write many rows at once. A statement that names its tenant
// (`tenant_id = $n`) is routed by a sharded database (Citus) to the one shard that holds the tenant's rows. The same
// statement over an array of tenants runs on every shard of the table, and a multi-shard UPDATE locks every shard
// against the others: a worker's lease of a few profiles over 32 shards took 0.5-3 s where one shard takes
// milliseconds (docs/operations/scaling-out.md, "Citus"). On one server it costs a statement per tenant of a batch.

/** A fixed order of tenant ids (UTF-16 code units); any one order, the same in every process, will do. */
export const compareTenants = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The tenant of a row that names it as `tenantId` (jobs, submissions, history rows, events). */
export const tenantIdOf = (row: { tenantId: string }) => row.tenantId

/** The rows grouped by tenant, tenants in the fixed order, rows in their given order within each. */
export function byTenantOf<R>(rows: readonly R[], tenantOf: (row: R) => string): [string, R[]][] {
  const groups = new Map<string, R[]>()
  for (const row of rows) {
    const tenantId = tenantOf(row)
    const group = groups.get(tenantId)
    if (group) group.push(row)
    else groups.set(tenantId, [row])
  }
  return [...groups.entries()].sort(([a], [b]) => compareTenants(a, b))
}

/**
 * Runs `run` once per tenant of the rows, one tenant after the other in the fixed order (so two transactions that lock
 * rows this way lock them in one total order), and returns what each returned, in that order.
 */
export async function perTenant<R, T = never>(
  rows: readonly R[],
  tenantOf: (row: R) => string,
  run: (tenantId: string, rows: R[]) => Promise<T[] | undefined | void>,
): Promise<T[]> {
  const out: T[] = []
  for (const [tenantId, group] of byTenantOf(rows, tenantOf)) {
    const got = await run(tenantId, group)
    if (Array.isArray(got)) out.push(...got)
  }
  return out
}

/** Whether the database is sharded by tenant (Citus is there, so the migrations distributed the tables). */
export async function isSharded(ds: { query(sql: string): Promise<unknown[]> }): Promise<boolean> {
  return (await ds.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`)).length > 0
}
