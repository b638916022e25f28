import type { AiOperation, Metrics } from '../metrics/metrics.js'
import { llmErrorKind } from './openai/client.js'
import type { AiProviders, Embedder, Extractor, Summarizer, Usage } from './types.js'

/**
 * The providers, each call timed and counted (latency by provider and outcome, tokens, errors by kind) whichever
 * provider runs. The tokens of a failed call are those its error carries.
 */
export function metered(ai: AiProviders, metrics: Metrics): AiProviders {
  const time = async <T extends { usage?: Usage }>(
    provider: string,
    operation: AiOperation,
    signal: AbortSignal | undefined,
    call: () => Promise<T>,
  ): Promise<T> => {
    const start = performance.now()
    try {
      const out = await call()
      metrics.aiCall(provider, operation, (performance.now() - start) / 1000, { usage: out.usage })
      return out
    } catch (err) {
      const usage = (err as { usage?: Usage } | undefined)?.usage
      metrics.aiCall(provider, operation, (performance.now() - start) / 1000, {
        usage,
        errorKind: llmErrorKind(err, signal),
      })
      throw err
    }
  }
  const { extractor, summarizer, embedder } = ai
  const meteredExtractor: Extractor = {
    get name() {
      return extractor.name
    },
    extract: (req, signal) => time(extractor.name, 'extract', signal, () => extractor.extract(req, signal)),
  }
  const meteredSummarizer: Summarizer = {
    get name() {
      return summarizer.name
    },
    summarize: (profile, signal, instructions) =>
      time(summarizer.name, 'summarize', signal, () => summarizer.summarize(profile, signal, instructions)),
  }
  const meteredEmbedder: Embedder = {
    get name() {
      return embedder.name
    },
    get model() {
      return embedder.model
    },
    get dimension() {
      return embedder.dimension
    },
    get calibration() {
      return embedder.calibration
    },
    ...(embedder.warmUp ? { warmUp: () => embedder.warmUp!() } : {}),
    embed: (texts, signal) => time(embedder.name, 'embed', signal, () => embedder.embed(texts, signal)),
  }
  return { ...ai, extractor: meteredExtractor, summarizer: meteredSummarizer, embedder: meteredEmbedder }
}
