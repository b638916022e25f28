import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Apps get a free display name ("My Web App") beside their handle: `name` stays the machine handle (the slug the CLI
 * and scripts use), `display_name` is what a person reads, and `display_key` (the display name in NFKC, lower case;
 * computed by the service) keeps display names unique in a tenant whatever their case. Existing apps get
 * display_name = name; names that differed only by case (allowed before) get " (2)", " (3)", ... by age, so the
 * unique index can be built.
 */
export class AppDisplayNames1764400000300 implements MigrationInterface {
  name = 'AppDisplayNames1764400000300'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE apps ADD COLUMN display_name text, ADD COLUMN display_key text`)
    await q.query(`
      UPDATE apps a SET display_name = d.display_name, display_key = lower(d.display_name)
        FROM (SELECT tenant_id, id,
                     name || CASE WHEN n > 1 THEN ' (' || n || ')' ELSE '' END AS display_name
                FROM (SELECT tenant_id, id, name,
                             row_number() OVER (PARTITION BY tenant_id, lower(name) ORDER BY created_at, id) AS n
                        FROM apps) r) d
       WHERE a.tenant_id = d.tenant_id AND a.id = d.id`)
    await q.query(`ALTER TABLE apps ALTER COLUMN display_name SET NOT NULL, ALTER COLUMN display_key SET NOT NULL`)
    await q.query(`CREATE UNIQUE INDEX apps_display_key ON apps (tenant_id, display_key)`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS apps_display_key`)
    await q.query(`ALTER TABLE apps DROP COLUMN display_name, DROP COLUMN display_key`)
  }
}
