// GraphQL's Profile beside REST's: a selection of every field, and conversions that make the two comparable.

/** Every field of Profile except the paged history and submissions. */
export const PROFILE_FIELDS = `
  profileId tenantId status
  coreInfo {
    name { value confidence } age { value confidence } gender { value confidence }
    location { value confidence } occupation { value confidence }
  }
  interests { category values { value confidence } }
  personality { traits { value confidence } moodTrends { default { value confidence } recent { value confidence } } }
  memories { event date importance confidence }
  preferences { conversationStyle { value confidence } topicsToAvoid { value confidence } }
  language
  fieldTimestamps { field at }
  summary lastUpdated createdAt`

/** Drops null and undefined members (GraphQL's null for "absent" vs REST's omission), recursively. */
export function withoutNulls(v: any): any {
  if (Array.isArray(v)) return v.map(withoutNulls)
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== null && x !== undefined)
        .map(([k, x]) => [k, withoutNulls(x)]),
    )
  }
  return v
}

/**
 * A GraphQL Profile in REST's shape (snake_case, interests and field_timestamps as maps, lower-case status),
 * without update_log (GraphQL pages it as `history`).
 */
export function gqlProfileAsRest(p: any): any {
  return withoutNulls({
    profile_id: p.profileId,
    tenant_id: p.tenantId,
    status: String(p.status).toLowerCase(),
    core_info: p.coreInfo,
    interests: Object.fromEntries(p.interests.map((c: any) => [c.category, c.values])),
    personality: { traits: p.personality.traits, mood_trends: p.personality.moodTrends },
    memories: p.memories,
    preferences: { conversation_style: p.preferences.conversationStyle, topics_to_avoid: p.preferences.topicsToAvoid },
    language: p.language,
    field_timestamps: Object.fromEntries(p.fieldTimestamps.map((t: any) => [t.field, t.at])),
    summary: p.summary,
    last_updated: p.lastUpdated,
    created_at: p.createdAt,
  })
}

/** A REST profile without its update_log (and without search-only members), for comparing with gqlProfileAsRest. */
export function restProfileCore(p: any): any {
  const { update_log: _log, similarityScore: _score, ...rest } = p
  return withoutNulls(rest)
}

/** A GraphQL history entry in the REST update_log shape. */
export const gqlLogEntryAsRest = (e: any) => ({
  extracted_on: e.extractedOn,
  changes: e.changes,
  submission_ids: e.submissionIds,
  input_type: e.inputType,
  seq: e.seq,
})
