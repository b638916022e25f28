import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * The order of a profile's status events. Every change of a profile's status takes the next value while it holds the
 * profile's row lock, so the values of one profile's events rise in commit order; processes deliver a profile's events
 * only in rising order, which keeps them in order also when one is published after its commit rather than in it.
 */
export class StatusEventOrder1764300000000 implements MigrationInterface {
  name = 'StatusEventOrder1764300000000'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE profile_status_seq`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SEQUENCE IF EXISTS profile_status_seq`)
  }
}
