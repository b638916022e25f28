import { describe, expect, it } from 'vitest'
import { COMPACT_PROFILE_MAX_CHARS, compactProfile } from '../../src/ai/openai/compact-profile.js'
import { emptyContent } from '../../src/domain/profile.js'

describe('compact profile for prompts', () => {
  it('shows values without confidences, core facts first', () => {
    const p = emptyContent()
    p.core_info = { name: { value: 'Maria', confidence: 0.9 }, age: { value: 34, confidence: 0.8 } }
    p.interests = { music: [{ value: 'jazz', confidence: 0.9 }], hobbies: [{ value: 'hiking', confidence: 0.7 }] }
    p.preferences.topics_to_avoid = [{ value: 'politics', confidence: 0.8 }]
    const text = compactProfile(p)
    expect(text.split('\n')[0]).toBe('core: name=Maria, age=34')
    expect(text).toContain('interests: music=jazz, hobbies=hiking')
    expect(text).toContain('topics_to_avoid: politics')
    expect(text).not.toMatch(/0\.\d/)
    expect(compactProfile(emptyContent())).toBe('(empty)')
  })

  it('stays within its budget however large the profile, keeping the most confident values', () => {
    const p = emptyContent()
    p.core_info.name = { value: 'Ola', confidence: 1 }
    for (let c = 0; c < 30; c++) {
      p.interests[`category_${c}`] = Array.from({ length: 40 }, (_, i) => ({
        value: `a fairly long interest value number ${i} of ${c}`,
        confidence: i === 7 ? 0.99 : 0.5,
      }))
    }
    p.personality.traits = Array.from({ length: 100 }, (_, i) => ({ value: `trait ${i}`, confidence: 0.5 }))
    p.memories = Array.from({ length: 200 }, (_, i) => ({
      event: `event ${i} with a long description that goes on and on`,
      confidence: 0.5,
    }))
    const text = compactProfile(p)
    expect(text.length).toBeLessThanOrEqual(COMPACT_PROFILE_MAX_CHARS)
    expect(text).toContain('core: name=Ola')
    // The most confident value of each category comes first, whatever its category.
    const interests = text.split('\n')[1]!
    expect(interests).toMatch(/^interests: category_0=a fairly long interest value…, category_1=/)
    expect(interests.split(', ').length).toBeGreaterThanOrEqual(10)
    expect(text).toMatch(/traits: trait 0/)
    expect(text).toMatch(/memories: event 199/)
  })
})
