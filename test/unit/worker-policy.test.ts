import { describe, expect, it } from 'vitest'
import { chooseBatch, distinctProfiles, retryDelayMs, type OpenSubmission } from '../../src/domain/worker-policy.js'

const s = (id: string, attempts = 0, wait = 0): OpenSubmission => ({ id, input_type: 'text', data: id, attempts, wait })
const ids = (c: ReturnType<typeof chooseBatch>) => (c.kind === 'batch' ? c.submissions.map((x) => x.id) : c)

describe('chooseBatch', () => {
  it('nothing open: none', () => expect(chooseBatch([])).toEqual({ kind: 'none' }))

  it('takes every fresh submission, in order', () =>
    expect(ids(chooseBatch([s('a'), s('b'), s('c')]))).toEqual(['a', 'b', 'c']))

  it('the oldest waits for its retry: nothing runs before it', () =>
    expect(chooseBatch([s('a', 1, 2.5), s('b'), s('c')])).toEqual({ kind: 'later', afterSeconds: 2.5 }))

  it('stops before one that waits', () =>
    expect(ids(chooseBatch([s('a'), s('b'), s('c', 1, 3), s('d')]))).toEqual(['a', 'b']))

  it('a submission tried before runs alone, and the fresh ones before it run without it', () => {
    expect(ids(chooseBatch([s('a', 1), s('b'), s('c')]))).toEqual(['a'])
    expect(ids(chooseBatch([s('a'), s('b'), s('c', 2), s('d')]))).toEqual(['a', 'b'])
  })
})

describe('retryDelayMs', () => {
  it('doubles each attempt from the base, within ±25 %', () => {
    expect(retryDelayMs(1, 1000, () => 0.5)).toBe(1000)
    expect(retryDelayMs(3, 1000, () => 0.5)).toBe(4000)
    expect(retryDelayMs(2, 1000, () => 0)).toBe(1500)
    expect(retryDelayMs(2, 1000, () => 1)).toBe(2500)
  })
})

describe('distinctProfiles', () => {
  it('one job per profile, first-seen order; the same id in two tenants is two profiles', () => {
    const jobs = [
      { tenantId: 't1', profileId: 'a' },
      { tenantId: 't2', profileId: 'a' },
      { tenantId: 't1', profileId: 'a' },
      { tenantId: 't1', profileId: 'b' },
    ]
    expect(distinctProfiles(jobs)).toEqual([jobs[0], jobs[1], jobs[3]])
  })
})

describe('submission states', () => {
  it('one list: the GraphQL enum and the SQL of open submissions follow it', async () => {
    const { SUBMISSION_STATES, OPEN_STATES, isOpenSql } = await import('../../src/domain/submission.js')
    const { SubmissionStatusEnum } = await import('../../src/graphql/types/enums.js')
    expect(Object.values(SubmissionStatusEnum)).toEqual([...SUBMISSION_STATES])
    expect(OPEN_STATES.every((s) => SUBMISSION_STATES.includes(s))).toBe(true)
    // The literal text of the partial indexes' predicate (migrations), so the planner uses them.
    expect(isOpenSql('s.status')).toBe(`s.status IN ('pending', 'processing')`)
  })
})
