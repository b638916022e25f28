// Submitting through the running service, as the integration tests do it.
import { expect } from 'vitest'
import type { Client } from './harness.js'

/** POSTs a submission for `id`, expects it accepted (202) and returns the submission's id. */
export async function post(api: Client, id: string, body: unknown, headers?: Record<string, string>): Promise<string> {
  const res = await api.post(id, body, headers)
  expect(res.status, await res.clone().text()).toBe(202)
  return ((await res.json()) as { id: string }).id
}

/** A JSON conversation: the assistant asks, the user answers, each answer at its time when `times` gives one. */
export const chat = (turns: [string, string][], times?: readonly (string | undefined)[]) =>
  JSON.stringify(
    turns.flatMap(([q, a], i) => [
      { role: 'assistant', content: q },
      { role: 'user', content: a, ...(times?.[i] ? { timestamp: times[i] } : {}) },
    ]),
  )
