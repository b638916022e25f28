import { profileText } from '../../ai/profile-text.js'
import type { AiProviders, ExtractionInput, Usage } from '../../ai/types.js'
import { sumUsage } from '../../ai/usage.js'
import type { ProfileRecord } from '../../db/profile.repository.js'
import { merge } from '../../domain/merge.js'
import { profileLexemes } from '../../domain/lexical.js'
import type { Extraction, ProfileState } from '../../domain/profile.js'
import { parseStructured } from '../../domain/structured.js'
import type { OpenSubmission } from '../../domain/worker-policy.js'
import { withUsage } from './round.js'
import { inSpan, inSpanSync } from '../../tracing/tracing.js'

/**
 * A claimed profile's batch: extracted (structured data is taken as given), merged into the profile's state, summarized
 * and embedded. Everything slow (AI calls) happens here, with no transaction open; what the calls cost travels with
 * any error.
 */
export async function extractProfile(ai: AiProviders, profile: ProfileRecord, subs: OpenSubmission[], signal?: AbortSignal) {
  // The summary follows the instructions of the app of the batch's newest submission (README "Summary instructions").
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
    const toExtract: ExtractionInput[] = subs
      .filter((s) => s.input_type !== 'structured')
      .map((s) => ({ submissionId: s.id, inputType: s.input_type as ExtractionInput['inputType'], data: s.data }))
    const extracted = toExtract.length
      ? await inSpan('extract', { attributes: { 'profiler.ai.provider': ai.extractor.name, 'profiler.submissions': toExtract.length } }, () =>
          ai.extractor.extract({ profile: profile.content, submissions: toExtract, summaryInstructions: instructions }, signal),
        )
      : { extractions: [] as Extraction[], usage: undefined, promptVersion: undefined, summary: undefined, evidence: undefined }
    spend(extracted.usage)
    if (extracted.extractions.length !== toExtract.length) throw new Error('extractor returned a wrong number of extractions')
    const byId = new Map(toExtract.map((s, i) => [s.submissionId, extracted.extractions[i]!]))
    const extractions = subs.map((s) => (s.input_type === 'structured' ? parseStructured(s.data) : byId.get(s.id)!))
    const now = new Date().toISOString()
    const merged = inSpanSync('merge', { attributes: { 'profiler.extractions': extractions.length } }, (span) => {
      const out = merge(state, extractions, now, { acceptedAt: subs.map((s) => s.created_at) })
      span?.setAttribute('profiler.changed', out.changed)
      return out
    })
    // A provider whose extraction request also wrote the summary saves a request per batch; that summary only
    // knows what the model saw, so a batch with structured submissions gets its own.
    const modelSawAll = toExtract.length === subs.length
    const { summary, usage: summaryUsage } =
      extracted.summary && modelSawAll
        ? { summary: extracted.summary, usage: undefined }
        : await inSpan('summarize', { attributes: { 'profiler.ai.provider': ai.summarizer.name } }, () => ai.summarizer.summarize(merged.state.content, signal, instructions))
    spend(summaryUsage)
    signal?.throwIfAborted()
    const { vectors, usage: embedUsage } = await inSpan(
      'embed',
      { attributes: { 'profiler.ai.provider': ai.embedder.name, 'profiler.ai.embedding_model': ai.embedder.model } },
      () => ai.embedder.embed([profileText(merged.state.content, summary)], signal),
    )
    spend(embedUsage)
    const provenance = subs.map((s, i) =>
      s.input_type === 'structured'
        ? { extraction: extractions[i] }
        : { extraction: byId.get(s.id), evidence: extracted.evidence?.[toExtract.findIndex((t) => t.submissionId === s.id)] },
    )
    // The words it is found by, computed here, outside the transaction of the apply.
    const lexemes = profileLexemes(merged.state.content, summary)
    return { merged, summary, vector: vectors[0]!, lexemes, now, usage: spent, provenance, promptVersion: extracted.promptVersion }
  } catch (err) {
    throw withUsage(err, sumUsage([spent, (err as { usage?: Usage })?.usage]))
  }
}


/** What extraction made of a claimed profile, ready to apply. */
export type Prepared = Awaited<ReturnType<typeof extractProfile>>
