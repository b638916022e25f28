// The tests' OpenAI-compatible server (test/support/openai-server.ts) as a standalone process, so the `openai` provider
// can be run end to end without a network: `npx tsx bench/fake-openai.ts [--port 11435] [--mode deepseek]`, then
// PROFILER_AI=openai OPENAI_API_KEY=fake PROFILER_OPENAI_BASE_URL=http://127.0.0.1:11435/v1 \
// PROFILER_CHAT_MODEL=test-chat PROFILER_EMBEDDING_MODEL=test-embed-small PROFILER_EMBEDDING_DIMENSIONS=64 \
// npm run eval -- --sample 200
// Its "model" is the local extractor reading the request as a model would (docs/evaluation.md): the figures measure the
// provider's plumbing (what is sent, checked and kept), not a language model's quality.
import http from 'node:http'
import { startOpenAIServer } from '../test/support/openai-server.js'
import type { ProviderMode } from '../test/support/provider-modes.js'

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : undefined
}
const port = Number(arg('port') ?? 11435)
const oa = await startOpenAIServer({ mode: (arg('mode') as ProviderMode | undefined) ?? 'openai' })
// A fixed port in front of the fake's own (it listens on a free one).
const target = new URL(oa.url)
const proxy = http.createServer((req, res) => {
  const up = http.request(
    { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
    (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers)
      r.pipe(res)
    },
  )
  up.on('error', () => res.destroy())
  req.pipe(up)
})
proxy.listen(port, '127.0.0.1', () =>
  console.log(`fake OpenAI-compatible server (mode ${oa.mode}) at http://127.0.0.1:${port}/v1`),
)
const stop = async () => {
  proxy.close()
  await oa.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
