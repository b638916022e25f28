import type { DataSource } from 'typeorm'

/** A row of some table that holds a searched-for text. */
export interface Residue {
  table: string
  row: string
}

/**
 * Every row of every table of the application's schemas (public, and pgboss for the jobs) whose text form contains
 * every one of `needles` (say a profile id and its tenant's id): read from information_schema, so tables added later
 * (webhook outboxes, audit logs) are searched too. A row of a table with an `event` column whose event is
 * 'profile.deleted' is allowed when `allowDeletionEvents` (a pending notice of the deletion may name the profile); the
 * caller still checks such rows carry no profile data.
 */
export async function residue(
  ds: DataSource,
  needles: string[],
  opts: { allowDeletionEvents?: boolean } = {},
): Promise<Residue[]> {
  const tables: { schema: string; name: string; has_event: boolean }[] = await ds.query(
    `SELECT t.table_schema AS schema, t.table_name AS name,
            EXISTS (SELECT 1 FROM information_schema.columns c
                     WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name
                       AND c.column_name = 'event') AS has_event
       FROM information_schema.tables t
      WHERE t.table_schema IN ('public', 'pgboss') AND t.table_type = 'BASE TABLE'`,
  )
  const found: Residue[] = []
  for (const t of tables) {
    const table = `"${t.schema}"."${t.name}"`
    const allowed =
      opts.allowDeletionEvents && t.has_event ? ` AND x.event::text IS DISTINCT FROM 'profile.deleted'` : ''
    const match = needles.map((_, i) => `strpos(x::text, $${i + 1}) > 0`).join(' AND ')
    const rows: { row: string }[] = await ds.query(
      `SELECT x::text AS row FROM ${table} x WHERE ${match}${allowed} LIMIT 5`,
      needles,
    )
    for (const r of rows) found.push({ table: `${t.schema}.${t.name}`, row: r.row.slice(0, 300) })
  }
  return found
}

/** The tables of the public schema with a profile_id column (for a check that names them). */
export async function profileTables(ds: DataSource): Promise<string[]> {
  const rows: { name: string }[] = await ds.query(
    `SELECT DISTINCT table_name AS name FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name = 'profile_id' ORDER BY 1`,
  )
  return rows.map((r) => r.name)
}
