// Large profiles for tests, built in one request through POST /v1/import (the export format,
// docs/operations/data-lifecycle.md): a profile with thousands of facts, or one with many submissions of 100 KiB texts.
// Everything stays within the API's limits (the profile limits' defaults, the 100 KiB data limit), so the import is
// what a client may send.
import crypto from 'node:crypto'

const AT = '2025-01-01T00:00:00.000Z'

export interface ImportProfile {
  id: string
  /** Interest values (spread over up to 100 categories) and memories: the facts of a context. */
  interests?: number
  memories?: number
  /** Texts of its applied (done) submissions, oldest first. */
  texts?: string[]
}

/** An export file (JSON Lines) holding `profiles`. */
export function importFile(profiles: ImportProfile[]): string {
  const records: unknown[] = [
    {
      type: 'header',
      format: 'profiler-export',
      version: 1,
      tenant: { id: 't', name: 't' },
      exported_at: AT,
      profile_id: null,
      include_text: true,
      profiles: profiles.length,
    },
  ]
  let submissions = 0
  for (const p of profiles) {
    const interests: Record<string, { value: string; confidence: number }[]> = {}
    for (let i = 0; i < (p.interests ?? 0); i++) {
      ;(interests[`topic_${i % 100}`] ??= []).push({
        value: `interest number ${i} about ${WORDS[i % WORDS.length]} and ${WORDS[(i * 7) % WORDS.length]}`,
        confidence: 0.3 + (i % 70) / 100,
      })
    }
    const memories = Array.from({ length: p.memories ?? 0 }, (_, i) => ({
      event: `Went to the ${WORDS[i % WORDS.length]} festival number ${i} with friends`,
      date: `20${10 + (i % 15)}-0${1 + (i % 9)}-1${i % 10}`,
      importance: (['low', 'medium', 'high'] as const)[i % 3],
    }))
    records.push({
      type: 'profile',
      profile_id: p.id,
      status: 'ready',
      created_at: AT,
      last_updated: AT,
      summary: `${p.id} is a person with many interests.`,
      language: 'en',
      core_info: { name: { value: `Person ${p.id}`, confidence: 0.9 } },
      interests,
      personality: { traits: [{ value: 'curious', confidence: 0.8 }], mood_trends: {} },
      memories,
      preferences: { topics_to_avoid: [] },
      field_timestamps: { core_info: AT },
      internals: { mood_counts: {}, seen: {} },
      history_seq: 1,
    })
    records.push({
      type: 'history',
      profile_id: p.id,
      seq: 1,
      extracted_on: AT,
      changes: { core_info: { name: { value: `Person ${p.id}`, confidence: 0.9 } } },
      submission_ids: [],
      input_type: 'structured',
    })
    for (const [i, text] of (p.texts ?? []).entries()) {
      submissions++
      const at = new Date(Date.parse(AT) + i * 1000).toISOString()
      records.push({
        type: 'submission',
        profile_id: p.id,
        id: crypto.randomUUID(),
        seq: i + 1,
        app_id: null,
        input_type: 'text',
        status: 'done',
        attempts: 1,
        error: null,
        created_at: at,
        started_at: at,
        finished_at: at,
        usage: null,
        prompt_version: null,
        text,
      })
    }
  }
  records.push({ type: 'end', profiles: profiles.length, history: profiles.length, submissions })
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n'
}

/** POST /v1/import of `file` with `key`; throws unless it is accepted. */
export async function importProfiles(base: string, key: string, file: string): Promise<any> {
  const r = await fetch(`${base}/v1/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
    body: file,
  })
  const body = await r.json()
  if (r.status !== 200) throw new Error(`import: ${r.status} ${JSON.stringify(body)}`)
  return body
}

const WORDS = [
  'jazz',
  'sailing',
  'chess',
  'cooking',
  'tennis',
  'poetry',
  'hiking',
  'painting',
  'astronomy',
  'cycling',
  'gardening',
  'opera',
  'surfing',
  'pottery',
  'climbing',
  'baking',
]

/**
 * About `bytes` of first-person text a person might write (sentences the local extractor reads: places, likes, work),
 * different for each `seed`.
 */
export function longText(bytes: number, seed = 0): string {
  const parts: string[] = []
  let n = 0
  for (let i = 0; n < bytes; i++) {
    const w = WORDS[(i + seed) % WORDS.length]
    const s = `I really enjoy ${w} on weekends with my friends number ${i + seed}. `
    parts.push(s)
    n += s.length
  }
  return parts.join('').slice(0, bytes)
}
