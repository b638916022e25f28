// A running service on the `openai` provider against the local OpenAI-compatible server, started before a describe
// block's tests and closed after them: the setup of every "(openai provider against the fake server)" block.
import { afterAll, beforeAll } from 'vitest'
import { client, startService, type Client, type TestService } from './harness.js'
import { openaiEnv, startOpenAIServer, type OpenAIServer, type OpenAIServerOptions } from './openai-server.js'

export interface OpenAIService {
  oa: OpenAIServer
  svc: TestService
  api: Client
}

/** Registers the block's beforeAll/afterAll; the returned object's fields are set once beforeAll has run. */
export function openaiService(opts: OpenAIServerOptions = {}, extra: Record<string, string> = {}): OpenAIService {
  const ai = {} as OpenAIService
  beforeAll(async () => {
    ai.oa = await startOpenAIServer(opts)
    ai.svc = await startService({ env: openaiEnv(ai.oa, extra) })
    ai.api = client(ai.svc.url, ai.svc.key)
  })
  afterAll(async () => {
    await ai.svc?.close()
    await ai.oa?.close()
  })
  return ai
}
