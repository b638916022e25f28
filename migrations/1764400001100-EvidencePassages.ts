import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Evidence passages (README "Evidence passages"): what a person said, per profile, with the submission it came from,
 * its position there, the speaker and the time it was said. Indexed for full text in the profile's language and in
 * `simple` (exact words, any language), and with a vector (its embedding model beside it) for retrieval within one
 * profile; no cross-profile vector index is needed. Deleted with the profile and with its submission; `hidden_at`
 * keeps a passage out of every context and search result (a forgotten value's evidence) while the forget is recorded.
 */
export class EvidencePassages1764400001100 implements MigrationInterface {
  name = 'EvidencePassages1764400001100'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE passages (
        tenant_id text NOT NULL,
        profile_id text NOT NULL,
        submission_id uuid NOT NULL,
        position integer NOT NULL,
        speaker text,
        prompt text,
        text text NOT NULL,
        occurred_at timestamptz NOT NULL,
        language regconfig NOT NULL DEFAULT 'simple',
        tsv tsvector GENERATED ALWAYS AS (
          to_tsvector(language, coalesce(prompt, '') || ' ' || text) || to_tsvector('simple'::regconfig, coalesce(prompt, '') || ' ' || text)
        ) STORED,
        embedding vector,
        embedding_model text,
        hidden_at timestamptz,
        hidden_by text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, submission_id, position),
        FOREIGN KEY (tenant_id, profile_id) REFERENCES profiles(tenant_id, profile_id) ON DELETE CASCADE,
        FOREIGN KEY (tenant_id, submission_id) REFERENCES submissions(tenant_id, id) ON DELETE CASCADE
      )`)
    await q.query(
      `CREATE INDEX passages_profile ON passages (tenant_id, profile_id, occurred_at, submission_id, position)`,
    )
    await q.query(`CREATE INDEX passages_tsv ON passages USING gin (tsv)`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS passages`)
  }
}
