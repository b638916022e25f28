import { z } from 'zod'
import type { Extraction, Memory, Removal, Scored } from '../../domain/profile.js'

/**
 * The model's answer: a strict JSON schema for structured outputs (every property required, nulls for "none"),
 * and the zod schema that validates it again on our side, because the output is untrusted data.
 */

const MAX_VALUE = 200
const MAX_EVIDENCE = 300
const MAX_LIST = 50

// Evidence comes first in every value: the model quotes the words before it writes the value, so the value follows from
// the quote instead of the quote being found for a value already chosen; the quote is then checked against the text.
const sv = z.object({ evidence: z.string(), value: z.string(), confidence: z.number() })
const nullableSv = sv.nullable()

export const submissionOutput = z.object({
  submission_id: z.string(),
  core_info: z.object({
    name: nullableSv,
    age: z.object({ evidence: z.string(), value: z.number(), confidence: z.number() }).nullable(),
    gender: nullableSv,
    location: nullableSv,
    occupation: nullableSv,
  }),
  interests: z.array(
    z.object({ evidence: z.string(), category: z.string(), value: z.string(), confidence: z.number() }),
  ),
  traits: z.array(sv),
  mood: nullableSv,
  memories: z.array(
    z.object({
      evidence: z.string(),
      event: z.string(),
      date: z.string().nullable(),
      importance: z.enum(['low', 'medium', 'high']),
      confidence: z.number(),
    }),
  ),
  conversation_style: nullableSv,
  topics_to_avoid: z.array(sv),
  removals: z.array(
    z.object({
      evidence: z.string(),
      section: z.enum(['interests', 'traits', 'topics_to_avoid']),
      category: z.string().nullable(),
      value: z.string(),
    }),
  ),
  language: z.string().nullable(),
})

export const batchOutput = z.object({
  submissions: z.array(submissionOutput),
  summary: z.string(),
})

export type SubmissionOutput = z.infer<typeof submissionOutput>
export type BatchOutput = z.infer<typeof batchOutput>

/** The JSON schema sent as response_format (strict mode: no optional properties, no extra ones). */
export function outputJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(batchOutput, { target: 'draft-7', reused: 'ref' }) as Record<string, unknown>
  delete schema.$schema
  return schema
}

const clip = (s: string, n: number) => s.trim().slice(0, n)
const conf = (c: number) => (Number.isFinite(c) ? Math.min(1, Math.max(0, c)) : 0.5)
function scored(answer: z.infer<typeof sv> | null): Scored<string> | undefined {
  if (!answer?.value.trim()) return undefined
  return { value: clip(answer.value, MAX_VALUE), confidence: conf(answer.confidence) }
}
const list = (vs: z.infer<typeof sv>[]) =>
  vs
    .slice(0, MAX_LIST)
    .map(scored)
    .filter((v): v is Scored<string> => !!v)

/** One validated submission answer -> the Extraction the merge takes. Limits sizes; the merge re-checks the rest. */
export function toExtraction(output: SubmissionOutput): Extraction {
  const core = output.core_info
  const interests: Record<string, Scored<string>[]> = {}
  for (const i of output.interests.slice(0, MAX_LIST)) {
    const value = scored(i)
    if (!value) continue
    const category = clip(i.category || 'other', 40) || 'other'
    ;(interests[category] ??= []).push(value)
  }
  const memories: Memory[] = output.memories.slice(0, MAX_LIST).flatMap((m) =>
    m.event.trim()
      ? [
          {
            event: clip(m.event, MAX_VALUE),
            ...(m.date ? { date: m.date } : {}),
            importance: m.importance,
            confidence: conf(m.confidence),
          },
        ]
      : [],
  )
  const removals: Removal[] = output.removals.slice(0, MAX_LIST).flatMap((r) =>
    r.value.trim()
      ? [
          {
            section: r.section,
            ...(r.category ? { category: clip(r.category, 40) } : {}),
            value: clip(r.value, MAX_VALUE),
          },
        ]
      : [],
  )
  const age =
    core.age && core.age.value > 0 && core.age.value < 150
      ? { value: Math.round(core.age.value), confidence: conf(core.age.confidence) }
      : undefined
  return {
    core_info: {
      ...(scored(core.name) ? { name: scored(core.name) } : {}),
      ...(age ? { age } : {}),
      ...(scored(core.gender) ? { gender: scored(core.gender) } : {}),
      ...(scored(core.location) ? { location: scored(core.location) } : {}),
      ...(scored(core.occupation) ? { occupation: scored(core.occupation) } : {}),
    },
    interests,
    personality: { traits: list(output.traits), ...(scored(output.mood) ? { mood: scored(output.mood) } : {}) },
    memories,
    preferences: {
      ...(scored(output.conversation_style) ? { conversation_style: scored(output.conversation_style) } : {}),
      topics_to_avoid: list(output.topics_to_avoid),
    },
    removals,
    ...(output.language && /^[a-z]{2}$/i.test(output.language.trim())
      ? { language: output.language.trim().toLowerCase() }
      : {}),
  }
}

/**
 * The answer with only the values whose quoted evidence is supported by the submission's text (`supported`): a value
 * whose quote the text does not hold was not said there (a guess, the profile repeated, another submission's words).
 * Removals too: an unsupported removal would erase what the person did say. Returns how many were dropped.
 */
export function supportedOnly(
  output: SubmissionOutput,
  supported: (quote: string) => boolean,
): { out: SubmissionOutput; dropped: number } {
  let dropped = 0
  const keep = <T extends { evidence: string }>(answer: T | null): T | null => {
    if (!answer) return answer
    if (supported(answer.evidence)) return answer
    dropped++
    return null
  }
  const keepAll = <T extends { evidence: string }>(vs: T[]): T[] => vs.filter((v) => keep(v) !== null)
  const core = output.core_info
  const out: SubmissionOutput = {
    ...output,
    core_info: {
      name: keep(core.name),
      age: keep(core.age),
      gender: keep(core.gender),
      location: keep(core.location),
      occupation: keep(core.occupation),
    },
    interests: keepAll(output.interests),
    traits: keepAll(output.traits),
    mood: keep(output.mood),
    memories: keepAll(output.memories),
    conversation_style: keep(output.conversation_style),
    topics_to_avoid: keepAll(output.topics_to_avoid),
    removals: keepAll(output.removals),
  }
  return { out, dropped }
}

/** The short evidence the model quoted for each value, kept with the submission for provenance. */
export function evidenceOf(output: SubmissionOutput): Record<string, string> {
  const out: Record<string, string> = {}
  const put = (path: string, answer: { evidence: string } | null) => {
    if (answer?.evidence) out[path] = clip(answer.evidence, MAX_EVIDENCE)
  }
  for (const [k, v] of Object.entries(output.core_info)) put(`core_info.${k}`, v)
  output.interests.forEach((i) => put(`interests.${i.category}.${i.value}`, i))
  output.traits.forEach((t) => put(`personality.traits.${t.value}`, t))
  put('personality.mood', output.mood)
  output.memories.forEach((m) => put(`memories.${m.event}`, m))
  put('preferences.conversation_style', output.conversation_style)
  output.topics_to_avoid.forEach((t) => put(`preferences.topics_to_avoid.${t.value}`, t))
  output.removals.forEach((r) => put(`removed.${r.value}`, r))
  return out
}
