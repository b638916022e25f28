import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * A primary key for login_failures, the one table without: TypeORM describes no table without one (its entity,
 * src/db/entities/account.entity.ts, is how the schema is checked for drift), and two failed sign-ins may share the
 * e-mail address, client address and time. Existing rows are numbered by the ALTER.
 */
export class LoginFailureKey1764400001300 implements MigrationInterface {
  name = 'LoginFailureKey1764400001300'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE login_failures ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE login_failures DROP COLUMN id`)
  }
}
