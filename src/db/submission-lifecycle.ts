import type { EntityManager } from 'typeorm'
import { isOpenSql } from '../domain/submission.js'
import type { SubmissionEntity } from './entities/submission.entity.js'
import { byTenantOf, perTenant, tenantIdOf } from './tenant-routing.js'

/** Errors are kept up to this many characters. */
const ERROR_CHARS = 1000

/** Tokens a submission cost, added to what it cost before. */
export interface TokenUsage {
  promptTokens: number
  completionTokens: number
  totalTokens: number
}

/**
 * Every change of a submission's state (src/domain/submission.ts), in one place: claimed for a batch, done, retried
 * with backoff, failed, deferred or given back. Each statement names one tenant (src/db/tenant-routing.ts); the
 * worker runs them in the transaction that holds the profile's row lock.
 */
export class SubmissionLifecycle {
  /** pending -> processing: taken for a batch, one more attempt each. */
  async claim(manager: EntityManager, submissions: { tenantId: string; id: string }[]): Promise<void> {
    await perTenant(submissions, tenantIdOf, (tenantId, group) =>
      manager.query(
        `UPDATE submissions s SET status = 'processing', attempts = attempts + 1, started_at = now()
           FROM unnest($1::text[], $2::uuid[]) AS x(tenant_id, id)
          WHERE s.tenant_id = $3 AND s.tenant_id = x.tenant_id AND s.id = x.id`,
        [group.map((s) => s.tenantId), group.map((s) => s.id), tenantId],
      ),
    )
  }

  /**
   * processing -> done, with what each keeps: its extraction, the prompt version, its share of the tokens. Returns how
   * many were finished (a submission no longer processing is not).
   */
  async finish(
    manager: EntityManager,
    done: { tenantId: string; id: string; promptVersion: string | null; extraction: string; usage?: TokenUsage }[],
  ): Promise<number> {
    const tokens = (u: TokenUsage | undefined, k: keyof TokenUsage) => (u?.totalTokens ? u[k] : null)
    // Those with tokens to add and those without, in a statement each: one statement choosing per row (a CASE around
    // jsonb_build_object) is one a sharded database (Citus) refuses, as it runs the update on the nodes. For the same
    // reason the object is built with immutable functions only (jsonb_set of a number's text): Citus refuses a STABLE
    // function such as jsonb_build_object called with columns in an UPDATE over several tenants. The stored value is
    // the same (jsonb keeps its own key order).
    const withUsage = done.filter((s) => tokens(s.usage, 'totalTokens') !== null)
    const without = done.filter((s) => tokens(s.usage, 'totalTokens') === null)
    const sum = (key: keyof TokenUsage, col: string) =>
      `'{${key}}', COALESCE(((COALESCE((s.usage->>'${key}')::bigint, 0) + x.${col})::text)::jsonb, 'null')`
    let finished = 0
    for (const [part, usage] of [
      [
        withUsage,
        `, usage = jsonb_set(jsonb_set(jsonb_set('{}'::jsonb, ${sum('promptTokens', 'prompt')}),
                                       ${sum('completionTokens', 'completion')}),
                             ${sum('totalTokens', 'total')})`,
      ],
      [without, ''],
    ] as const) {
      for (const [tenantId, group] of byTenantOf(part, tenantIdOf)) {
        const [rows]: [Pick<SubmissionEntity, 'id'>[], number] = await manager.query(
          `UPDATE submissions s SET status = 'done', finished_at = now(), error = NULL,
                  prompt_version = x.prompt_version, extraction = x.extraction::jsonb${usage}
             FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[])
                  AS x(tenant_id, id, prompt_version, extraction, prompt, completion, total)
            WHERE s.tenant_id = $8 AND s.tenant_id = x.tenant_id AND s.id = x.id AND s.status = 'processing'
            RETURNING s.id`,
          [
            group.map((s) => s.tenantId),
            group.map((s) => s.id),
            group.map((s) => s.promptVersion),
            group.map((s) => s.extraction),
            group.map((s) => tokens(s.usage, 'promptTokens')),
            group.map((s) => tokens(s.usage, 'completionTokens')),
            group.map((s) => tokens(s.usage, 'totalTokens')),
            tenantId,
          ],
        )
        finished += rows.length
      }
    }
    return finished
  }

  /** -> pending again after a failed attempt, not before `afterSeconds` (the backoff), with the error kept. */
  async retry(
    manager: EntityManager,
    tenantId: string,
    id: string,
    error: string,
    afterSeconds: number,
  ): Promise<void> {
    await manager.query(
      `UPDATE submissions SET status = 'pending', error = $3, not_before = now() + make_interval(secs => $4)
        WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, error.slice(0, ERROR_CHARS), afterSeconds],
    )
  }

  /** -> failed: its last attempt failed; the error is kept and nothing of it is merged. */
  async fail(manager: EntityManager, tenantId: string, id: string, error: string): Promise<void> {
    await manager.query(
      `UPDATE submissions SET status = 'failed', error = $3, finished_at = now() WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, error.slice(0, ERROR_CHARS)],
    )
    // Passages an earlier attempt stored ahead of its apply (src/services/worker/passages.ts) are evidence of nothing
    // now.
    await manager.query(`DELETE FROM passages WHERE tenant_id = $1 AND submission_id = $2`, [tenantId, id])
  }

  /**
   * -> pending, not before `afterSeconds`, without using up the attempt: a failure that is not theirs (the provider's
   * circuit is open), with the reason as their error.
   */
  async defer(
    manager: EntityManager,
    tenantId: string,
    ids: string[],
    reason: string,
    afterSeconds: number,
  ): Promise<void> {
    await manager.query(
      `UPDATE submissions
          SET status = 'pending', attempts = GREATEST(attempts - 1, 0), error = $3,
              not_before = now() + make_interval(secs => $4)
        WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenantId, ids, reason.slice(0, ERROR_CHARS), afterSeconds],
    )
  }

  /** processing -> pending as if never tried: a batch interrupted by a shutdown. */
  async giveBack(manager: EntityManager, tenantId: string, ids: string[]): Promise<void> {
    await manager.query(
      `UPDATE submissions SET status = 'pending', attempts = GREATEST(attempts - 1, 0), started_at = NULL
        WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status = 'processing'`,
      [tenantId, ids],
    )
  }

  /** Adds tokens spent to a submission (a failed attempt costs too). */
  async addUsage(manager: EntityManager, tenantId: string, id: string, usage: TokenUsage): Promise<void> {
    await manager.query(
      `UPDATE submissions SET usage = jsonb_build_object(
         'promptTokens', COALESCE((usage->>'promptTokens')::bigint, 0) + $3,
         'completionTokens', COALESCE((usage->>'completionTokens')::bigint, 0) + $4,
         'totalTokens', COALESCE((usage->>'totalTokens')::bigint, 0) + $5)
       WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, usage.promptTokens, usage.completionTokens, usage.totalTokens],
    )
  }

  /** How many submissions of the profile are open. */
  async countOpen(manager: EntityManager, tenantId: string, profileId: string): Promise<number> {
    const [{ n }]: { n: number }[] = await manager.query(
      `SELECT count(*)::int AS n FROM submissions WHERE tenant_id = $1 AND profile_id = $2 AND ${isOpenSql()}`,
      [tenantId, profileId],
    )
    return n
  }
}
