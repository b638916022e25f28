// A value said in far more passages than one lookup reads at once (docs/guides/profile-lifecycle.md "What a forget
// does"), through the running service on the configured database, local provider: the forget hides every passage
// that says it and reports them all; a forget cut short leaves what it did not hide to a second forget of the same
// value; the evidence lookup finds the passages that support a value however many others say its words.
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { chat, post } from '../support/submit.js'

/** Conversations and turns per conversation of the main profile: 1,600 turns that say the value. */
const CONVERSATIONS = 8
const TURNS = 200
/** Processing the 3,200 turns of all the profiles takes tens of seconds; more on a loaded machine. */
const SETUP_MS = 420_000
const SLOW = { timeout: 120_000 }

describe('forgetting a value said in 1,600 passages', () => {
  let svc: TestService
  let api: Client
  let mcp: McpClient
  /** The submission whose stored extraction the evidence test drops. */
  let ownSay: string
  const auth = () => ({ authorization: `Bearer ${svc.key}` })
  const forget = async (id: string, body: unknown) => {
    const r = await fetch(`${svc.url}/v1/profile/${encodeURIComponent(id)}/values`, {
      method: 'DELETE',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: r.status, body: (await r.json()) as any }
  }
  const evidence = async (id: string, params: Record<string, string>) => {
    const r = await api.get(
      `/v1/profile/${encodeURIComponent(id)}/evidence?${new URLSearchParams({ limit: '50', ...params })}`,
    )
    expect(r.status).toBe(200)
    return (await r.json()) as any
  }
  const context = async (id: string, query: string) => {
    const r = await api.get(
      `/v1/profile/${encodeURIComponent(id)}/context?${new URLSearchParams({ query, max_tokens: '4000' })}`,
    )
    expect(r.status).toBe(200)
    return ((await r.json()) as { text: string }).text
  }
  const recall = async (id: string, query: string) => {
    const r = (await mcp.callTool({
      name: 'recall',
      arguments: { profile_id: id, query, max_tokens: 4000 },
    })) as CallToolResult
    expect(r.isError).toBeFalsy()
    return r.content.map((p) => (p.type === 'text' ? p.text : '')).join('')
  }
  const found = async (query: string) =>
    ((await api.search({ query, pageSize: 100 })).profiles as { profile_id: string }[]).map((p) => p.profile_id)
  const sql = (query: string, params: unknown[]) => svc.profiler.db.dataSource.query(query, params)
  const visibleSaying = async (id: string, word: string) =>
    Number(
      (
        await sql(
          `SELECT count(*)::int AS n FROM passages WHERE profile_id = $1 AND text ILIKE $2 AND hidden_at IS NULL`,
          [id, `%${word}%`],
        )
      )[0].n,
    )

  /** Sends `conversations` conversations of `turns` turns, each user turn saying `said(conversation, turn)`. */
  const talk = async (id: string, conversations: number, turns: number, said: (c: number, t: number) => string) => {
    const ids: string[] = []
    for (let c = 0; c < conversations; c++) {
      const pairs = Array.from({ length: turns }, (_, t): [string, string] => [
        `What did you do on evening ${t + 1}?`,
        said(c, t),
      ])
      const day = String(c + 1).padStart(2, '0')
      const body = { input_type: 'conversation', data: chat(pairs), occurred_at: `2025-03-${day}T10:00:00Z` }
      ids.push(await post(api, id, body))
    }
    return ids
  }
  const lovesChess = (c: number, t: number) => `I love chess, it was game ${c * TURNS + t + 1} this week.`

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    api = client(svc.url, svc.key)
    mcp = new McpClient({ name: 'forget-many-test', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL('/mcp', svc.url), { requestInit: { headers: auth() } }))
    await talk('chess-1600', CONVERSATIONS, TURNS, lovesChess)
    await post(api, 'neighbour', { data: 'My name is Rui. I love cooking and long walks.' })
    await talk('chess-cut', 3, TURNS, lovesChess)
    // 1,000 turns that say "chess" of someone else (the extractor does not take it as hers), then one that says it of
    // the person, whose stored extraction the test drops (as an older or imported submission's is not known).
    await talk('chess-brother', 5, TURNS, (c, t) => `My brother is good at chess, game ${c * TURNS + t + 1}.`)
    ;[ownSay] = await talk('chess-brother', 1, 1, () =>
      [
        'Yesterday after a long and tiring day at the office I sat down',
        'and played chess with my old friend from school.',
      ].join(' '),
    )
    for (const id of ['chess-1600', 'neighbour', 'chess-cut', 'chess-brother']) await api.waitReady(id, SETUP_MS)
  }, SETUP_MS)
  afterAll(async () => {
    await mcp?.close().catch(() => undefined)
    await svc?.close()
  })

  it(
    'hides all of them and counts them all; context, MCP recall, evidence and search no longer show it',
    SLOW,
    async () => {
      const id = 'chess-1600'
      const saying = await visibleSaying(id, 'chess')
      expect(saying).toBe(CONVERSATIONS * TURNS)
      expect(JSON.stringify((await api.profile(id)).interests)).toContain('chess')
      expect(await context(id, 'chess')).toMatch(/chess/i)
      expect(await recall(id, 'chess')).toMatch(/chess/i)
      expect((await evidence(id, { field: 'interests', value: 'chess' })).passages.length).toBe(50)
      expect(await found('chess')).toContain(id)

      const r = await forget(id, { section: 'interests', value: 'chess' })
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200)
      const entry = r.body.profile.update_log.at(-1)
      expect(entry).toMatchObject({ input_type: 'forget', changes: { passages_hidden: saying } })

      expect(await visibleSaying(id, 'chess')).toBe(0)
      const hiddenBy = await sql(
        `SELECT hidden_by, count(*)::int AS n FROM passages WHERE profile_id = $1 GROUP BY hidden_by`,
        [id],
      )
      expect(hiddenBy).toEqual([{ hidden_by: `forget:${entry.seq}`, n: saying }])
      expect(await context(id, 'chess')).not.toMatch(/chess/i)
      expect(await context(id, 'which games does she play?')).not.toMatch(/chess/i)
      expect(await recall(id, 'chess')).not.toMatch(/chess/i)
      expect(await recall(id, 'which games does she play?')).not.toMatch(/chess/i)
      expect((await evidence(id, { field: 'interests', value: 'chess' })).passages).toEqual([])
      expect(await found('chess')).not.toContain(id)
      expect(await found('cooking')).toContain('neighbour')

      // Done: nothing is left to hide, and the value is not in the profile.
      const again = await forget(id, { section: 'interests', value: 'chess' })
      expect(again.status).toBe(404)
      expect(again.body.message).toMatch(/has no value 'chess'/)
    },
  )

  it(
    'a forget cut short: forgetting the value again hides the rest, and its entry counts the total',
    SLOW,
    async () => {
      const id = 'chess-cut'
      const saying = await visibleSaying(id, 'chess')
      expect(saying).toBe(3 * TURNS)
      const first = await forget(id, { section: 'interests', value: 'chess' })
      expect(first.status).toBe(200)
      const seq = first.body.profile.update_log.at(-1).seq
      // What a process that stopped after hiding 500 of them leaves: the value gone, its entry counting 500, the newest
      // 100 passages still shown.
      const left = saying - 500
      await sql(
        `UPDATE passages SET hidden_at = NULL, hidden_by = NULL
          WHERE profile_id = $1 AND (submission_id, position) IN (
                SELECT submission_id, position FROM passages WHERE profile_id = $1
                 ORDER BY occurred_at DESC, position LIMIT $2)`,
        [id, left],
      )
      await sql(
        `UPDATE profile_history SET changes = jsonb_set(changes, '{passages_hidden}', '500')
        WHERE profile_id = $1 AND seq = $2`,
        [id, seq],
      )
      expect(await visibleSaying(id, 'chess')).toBe(left)
      expect(await context(id, 'chess')).toMatch(/chess/i)

      const resumed = await forget(id, { section: 'interests', value: 'chess' })
      expect(resumed.status, JSON.stringify(resumed.body).slice(0, 300)).toBe(200)
      const log = resumed.body.profile.update_log
      expect(log.filter((e: any) => e.input_type === 'forget').length).toBe(1)
      expect(log.find((e: any) => e.seq === seq).changes.passages_hidden).toBe(saying)
      expect(await visibleSaying(id, 'chess')).toBe(0)
      expect(await context(id, 'chess')).not.toMatch(/chess/i)
      const hiddenBy = await sql(`SELECT DISTINCT hidden_by FROM passages WHERE profile_id = $1`, [id])
      expect(hiddenBy.map((x: any) => x.hidden_by)).toEqual([`forget:${seq}`])
      expect((await forget(id, { section: 'interests', value: 'chess' })).status).toBe(404)
    },
  )

  it(
    'the evidence lookup reads past its first 1,000 candidates: a passage of an unknown extraction counts',
    SLOW,
    async () => {
      await sql(`UPDATE submissions SET extraction = NULL WHERE id = $1`, [ownSay])
      const r = await evidence('chess-brother', { field: 'interests', value: 'chess' })
      expect(r.passages.map((p: any) => [p.submission_id, p.match])).toEqual([[ownSay, 'words']])
    },
  )
})
