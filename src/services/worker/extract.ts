import { SubmissionsUnfitError } from '../../ai/errors.js'
import { withSummary } from '../../ai/profile-text.js'
import type { AiProviders, ExtractionInput, ExtractResult, Usage } from '../../ai/types.js'
import { sumUsage } from '../../ai/usage.js'
import type { ProfileRecord } from '../../db/profile.repository.js'
import { cleanCustomValues } from '../../domain/custom-schema.js'
import { lexemesWith } from '../../domain/lexical.js'
import type { Extraction, ProfileContent, ProfileState } from '../../domain/profile.js'
import type { ProfileLimits } from '../../domain/profile-limits.js'
import type { CpuPool } from '../cpu/cpu.js'
import { parseStructured } from '../../domain/structured.js'
import type { OpenSubmission } from '../../domain/worker-policy.js'
import { withUsage } from './round.js'
import { inSpan } from '../../tracing/tracing.js'
import { passageEmbedText, textSearchConfig } from '../../domain/passages.js'
import { buildPassages } from '../../ai/passages.js'
import type { PassageWrite } from '../../db/passage.repository.js'

/** What a batch's extraction runs on. */
export interface ExtractDeps {
  ai: AiProviders
  /** Where the merge runs: off the main thread. */
  cpu: CpuPool
  limits: ProfileLimits
}

/**
 * A claimed profile's batch: extracted (structured data is taken as given), merged into the profile's state, summarized
 * and embedded. Everything slow (AI calls, the merge on its thread) happens here, with no transaction open; what the
 * calls cost travels with any error. `signal` ends it early (a shutdown, or the batch's time budget).
 */
export async function extractProfile(
  deps: ExtractDeps,
  profile: ProfileRecord,
  claimed: OpenSubmission[],
  signal?: AbortSignal,
) {
  let subs = claimed
  const { ai } = deps
  // The summary follows the instructions of the app of the batch's newest submission
  // (docs/guides/summary-instructions.md).
  const instructions = subs[subs.length - 1]?.instructions ?? []
  const state: ProfileState = {
    content: profile.content,
    field_timestamps: profile.field_timestamps,
    internals: profile.internals,
    ...(profile.language ? { language: profile.language } : {}),
  }
  // What the AI calls cost so far travels with any error, so a failed attempt is still accounted.
  let spent: Usage | undefined
  const spend = (u: Usage | undefined) => (spent = sumUsage([spent, u]))
  try {
    const extractedSubs = subs.filter((s) => s.input_type !== 'structured')
    const toExtract: ExtractionInput[] = extractedSubs.map(extractionInput)
    const extracted = toExtract.length
      ? await inSpan(
          'extract',
          { attributes: { 'profiler.ai.provider': ai.extractor.name, 'profiler.submissions': toExtract.length } },
          () => extractBySchema(ai, profile.content, extractedSubs, toExtract, instructions, signal),
        )
      : {
          extractions: [] as Extraction[],
          usage: undefined,
          promptVersion: undefined,
          summary: undefined,
          evidence: undefined,
        }
    spend(extracted.usage)
    if (extracted.extractions.length !== toExtract.length)
      throw new Error('extractor returned a wrong number of extractions')
    // Submissions the model cannot extract as they are (too long for its context or output cap even alone) are failed
    // once by the apply, and the others go on; when nothing else is left, the batch fails with them.
    const failed = extracted.failed ?? []
    if (failed.length) {
      const unfit = new Set(failed.map((f) => f.submissionId))
      if (subs.every((s) => unfit.has(s.id))) throw new SubmissionsUnfitError(failed)
      subs = subs.filter((s) => !unfit.has(s.id))
    }
    const byId = new Map(toExtract.map((s, i) => [s.submissionId, extracted.extractions[i]!]))
    // Custom values only where the submitting app's schema declares them, whatever an extractor proposed.
    const extractions = subs.map((submission) =>
      withCustom(
        submission.input_type === 'structured' ? parseStructured(submission.data) : byId.get(submission.id)!,
        submission,
      ),
    )
    const now = new Date().toISOString()
    // The merge, and what grows with the profile (its JSON, its words), on a CPU thread: a profile at the limits takes
    // a tenth of a second or more, which the event loop must not wait for.
    const { merged, json, contentLexemes, lines, keptProposals } = await inSpan(
      'merge',
      { attributes: { 'profiler.extractions': extractions.length } },
      async (span) => {
        const out = await deps.cpu.merge(
          {
            state,
            extractions,
            now,
            acceptedAt: subs.map((s) => s.created_at),
            occurredAt: subs.map(eventTime),
            limits: deps.limits,
          },
          { signal },
        )
        span?.setAttribute('profiler.changed', out.merged.changed)
        return out
      },
    )
    // A provider whose extraction request also wrote the summary saves a request per batch; that summary only
    // knows what the model saw, so a batch with structured submissions gets its own (so does one whose submissions did
    // not all fit); and it was written before the merge, so it stands only when the merge kept what the model proposed.
    const modelSawAll = toExtract.length === subs.length && !failed.length
    const { summary, usage: summaryUsage } =
      extracted.summary && modelSawAll && keptProposals
        ? { summary: extracted.summary, usage: undefined }
        : await inSpan('summarize', { attributes: { 'profiler.ai.provider': ai.summarizer.name } }, () =>
            ai.summarizer.summarize(merged.state.content, signal, instructions),
          )
    spend(summaryUsage)
    signal?.throwIfAborted()
    // What the person said, kept as evidence passages (docs/guides/evidence.md), embedded in the same request as the
    // profile: one embedding call per batch whatever the number of passages.
    const drafts = subs.flatMap((submission) => {
      const at = eventTime(submission) ?? now
      return buildPassages(
        { input_type: submission.input_type, data: submission.data, occurredAt: at },
        { perSubmission: deps.limits.passagesPerSubmission },
        Date.parse(submission.created_at ?? now),
      ).passages.map((p) => ({ ...p, submissionId: submission.id }))
    })
    const { vectors, usage: embedUsage } = await inSpan(
      'embed',
      {
        attributes: {
          'profiler.ai.provider': ai.embedder.name,
          'profiler.ai.embedding_model': ai.embedder.model,
          'profiler.passages': drafts.length,
        },
      },
      () => ai.embedder.embed([withSummary(summary, lines), ...drafts.map(passageEmbedText)], signal),
    )
    spend(embedUsage)
    const config = textSearchConfig(merged.state.language)
    const passages: PassageWrite[] = drafts.map((draft, i) => ({
      ...draft,
      language: config,
      embedding: vectors[i + 1]!,
      model: ai.embedder.model,
    }))
    // Structured data is its own provenance: its values are the submission's data, taken as given (a copy would double
    // what the apply writes, 100 KB and more for a large document).
    const provenance = subs.map((submission) =>
      submission.input_type === 'structured'
        ? { structured: true }
        : {
            extraction: byId.get(submission.id),
            evidence: extracted.evidence?.[toExtract.findIndex((t) => t.submissionId === submission.id)],
          },
    )
    // The words it is found by, computed here, outside the transaction of the apply.
    const lexemes = lexemesWith(summary, contentLexemes)
    return {
      merged,
      json,
      summary,
      vector: vectors[0]!,
      lexemes,
      now,
      usage: spent,
      provenance,
      promptVersion: extracted.promptVersion,
      failed,
      passages,
    }
  } catch (err) {
    throw withUsage(err, sumUsage([spent, (err as { usage?: Usage })?.usage]))
  }
}

/**
 * One extractor request per run of consecutive submissions with the same custom schema (usually the whole batch: one
 * app), so each request carries the schema of the apps that submitted it; results are concatenated in order. A batch
 * split in several requests gets no summary from them (the summarizer writes it).
 */
export async function extractBySchema(
  ai: AiProviders,
  content: ProfileContent,
  subs: SchemaSubmission[],
  inputs: ExtractionInput[],
  summaryInstructions: readonly string[],
  signal?: AbortSignal,
  options: { background?: boolean } = {},
): Promise<ExtractResult> {
  const keyOf = (submission: SchemaSubmission) =>
    submission.schema ? `${submission.schema.appId}:${submission.schema.version}` : ''
  const runs: { start: number; end: number }[] = []
  for (let i = 0; i < subs.length; i++) {
    if (i > 0 && keyOf(subs[i]!) === keyOf(subs[i - 1]!)) runs[runs.length - 1]!.end = i + 1
    else runs.push({ start: i, end: i + 1 })
  }
  const results: ExtractResult[] = []
  for (const run of runs) {
    const schema = subs[run.start]!.schema
    results.push(
      await ai.extractor.extract(
        {
          profile: content,
          submissions: inputs.slice(run.start, run.end),
          summaryInstructions,
          ...(schema ? { customSchema: { key: `${keyOf(subs[run.start]!)}`, schema: schema.schema } } : {}),
          ...(options.background ? { background: true } : {}),
        },
        signal,
      ),
    )
  }
  if (results.length === 1) return results[0]!
  const failed = results.flatMap((x) => x.failed ?? [])
  return {
    extractions: results.flatMap((x) => x.extractions),
    usage: sumUsage(results.map((x) => x.usage)),
    promptVersion: results.find((x) => x.promptVersion)?.promptVersion,
    evidence: results.every((x) => x.evidence) ? results.flatMap((x) => x.evidence!) : undefined,
    ...(failed.length ? { failed } : {}),
  }
}

/** The extraction with its custom values checked against the submission's app schema (none without one). */
export function withCustom(ex: Extraction, submission: SchemaSubmission): Extraction {
  let raw: unknown = ex.custom
  if (submission.input_type === 'structured' && submission.schema) {
    // Structured data may carry `custom` like the profile shows it; a bare value counts as certain, as elsewhere.
    const doc = JSON.parse(submission.data) as Record<string, unknown>
    raw = doc.custom
    const custom = cleanCustomValues(submission.schema.schema, raw, 1)
    return Object.keys(custom).length ? { ...ex, custom } : ex
  }
  if (raw === undefined) return ex
  const { custom: _dropped, ...rest } = ex
  if (!submission.schema) return rest
  const custom = cleanCustomValues(submission.schema.schema, raw)
  return Object.keys(custom).length ? { ...rest, custom } : rest
}

/**
 * When a submission's text was said or written: its occurred_at, else its acceptance time
 * (docs/guides/submitting-data.md); never after its acceptance (a sender's clock running ahead within the allowed skew
 * dates nothing in the future).
 */
export function eventTime(submission: { occurred_at?: string; created_at?: string }): string | undefined {
  const at = submission.occurred_at ?? submission.created_at
  if (at === undefined || submission.created_at === undefined) return at
  return Date.parse(at) > Date.parse(submission.created_at) ? submission.created_at : at
}

/** A submission as the extractor reads it: its event time is the reference date of its relative dates ("yesterday"). */
export function extractionInput(submission: {
  id: string
  input_type: string
  data: string
  occurred_at?: string
  created_at?: string
}): ExtractionInput {
  const at = eventTime(submission)
  return {
    submissionId: submission.id,
    inputType: submission.input_type as ExtractionInput['inputType'],
    data: submission.data,
    ...(at ? { referenceDate: at } : {}),
    ...(submission.created_at ? { receivedAt: submission.created_at } : {}),
  }
}

/** What the custom-schema steps read of a submission (a claimed one, or one a re-extraction replays). */
export type SchemaSubmission = Pick<OpenSubmission, 'input_type' | 'data' | 'schema'>

/** What extraction made of a claimed profile, ready to apply. */
export type Prepared = Awaited<ReturnType<typeof extractProfile>>
