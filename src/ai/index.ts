import type { Config } from '../config.js'
import { LocalEmbedder } from './local/local-embedder.js'
import { LocalExtractor } from './local/local-extractor.js'
import { LocalSummarizer } from './local/local-summarizer.js'
import type { AiProviders, Extractor } from './types.js'

/** Chosen once at start-up from configuration; nothing outside ai/ knows which provider runs. */
export function createAiProviders(config: Config): AiProviders {
  if (config.ai === 'openai') {
    throw new Error('PROFILER_AI=openai is not available yet: the OpenAI-compatible provider is planned (issue 4). Use PROFILER_AI=local.')
  }
  const extractor = new LocalExtractor()
  return {
    extractor: config.worker.extractDelayMs > 0 ? slowed(extractor, config.worker.extractDelayMs) : extractor,
    summarizer: new LocalSummarizer(),
    embedder: new LocalEmbedder(),
  }
}

/** PROFILER_EXTRACT_DELAY_MS: makes every extraction take longer, so tests can act while a batch is in flight. */
function slowed(inner: Extractor, ms: number): Extractor {
  return {
    name: inner.name,
    async extract(req, signal) {
      await new Promise((r) => setTimeout(r, ms))
      return inner.extract(req, signal)
    },
  }
}
