import type { Config } from '../config.js'
import { LocalEmbedder } from './local/local-embedder.js'
import { LocalExtractor } from './local/local-extractor.js'
import { LocalSummarizer } from './local/local-summarizer.js'
import { LlmClient } from './openai/client.js'
import { OpenAIEmbedder } from './openai/openai-embedder.js'
import { OpenAIExtractor, OpenAISummarizer } from './openai/openai-extractor.js'
import type { AiProviders, Extractor } from './types.js'

/** Chosen once at start-up from configuration; nothing outside ai/ knows which provider runs. */
export function createAiProviders(config: Config): AiProviders {
  let providers: AiProviders
  if (config.ai === 'openai') {
    const llm = new LlmClient(config.openai)
    providers = {
      extractor: new OpenAIExtractor(llm, config.openai.chatModel),
      summarizer: new OpenAISummarizer(llm, config.openai.chatModel),
      embedder: new OpenAIEmbedder(llm, config.openai.embeddingModel, {
        dimensions: config.openai.embeddingDimensions,
        calibration: config.openai.embeddingCalibration,
      }),
    }
  } else {
    providers = { extractor: new LocalExtractor(), summarizer: new LocalSummarizer(), embedder: new LocalEmbedder() }
  }
  const delay = config.worker.extractDelayMs
  return delay > 0 ? { ...providers, extractor: slowed(providers.extractor, delay) } : providers
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
