import type { Config } from '../config.js'
import { LocalEmbedder } from './local/local-embedder.js'
import { ThreadedExtractor } from './local/extract-pool.js'
import { LocalExtractor } from './local/local-extractor.js'
import { LocalSummarizer } from './local/local-summarizer.js'
import { LlmMisconfiguredError, LlmRateLimitedError, LlmUnavailableError } from './errors.js'
import { describe, LlmClient, type LlmErrorKind } from './openai/client.js'
import type { Pause } from './openai/pause.js'
import { OpenAIEmbedder } from './openai/openai-embedder.js'
import { OpenAIExtractor, OpenAISummarizer } from './openai/openai-extractor.js'
import { isConnectionError } from '../domain/errors.js'
import type { AiProviders, Extractor, Summarizer, Usage } from './types.js'
import { byMessageTime } from './message-times.js'

/**
 * Chosen once at start-up from configuration; nothing outside ai/ knows which provider runs. `onLlmFailure` is told of
 * every failed request to an LLM provider, retried ones included.
 */
export function createAiProviders(
  config: Config,
  opts: {
    onLlmFailure?: (kind: LlmErrorKind) => void
    events?: ProviderEvents
    log?: { warn(obj: object, msg: string): void }
  } = {},
): AiProviders {
  let providers: AiProviders
  if (config.ai === 'openai') {
    const llm = new LlmClient(config.openai, opts.onLlmFailure, opts.events, opts.log)
    // Embeddings from their own server when one is configured (its own key; the chat provider's headers stay with it).
    const openai = config.openai
    const embedLlm = openai.embeddingBaseUrl
      ? new LlmClient(
          { ...openai, baseUrl: openai.embeddingBaseUrl, apiKey: openai.embeddingApiKey ?? openai.apiKey, headers: {} },
          opts.onLlmFailure,
          opts.events,
          opts.log,
        )
      : llm
    providers = {
      status: () => llm.status(),
      // The model reads dates, not times of day: a conversation is cut where its messages' day changes.
      extractor: byMessageTime(new OpenAIExtractor(llm, config.openai.chatModel), 'day'),
      summarizer: withTemplateFallback(new OpenAISummarizer(llm, config.openai.chatModel)),
      embedder: new OpenAIEmbedder(embedLlm, config.openai.embeddingModel, {
        dimensions: config.openai.embeddingDimensions,
        calibration: config.openai.embeddingCalibration,
      }),
    }
  } else {
    const threads = config.worker.extractThreads
    const extractor = threads > 0 ? new ThreadedExtractor(threads) : new LocalExtractor()
    providers = {
      extractor: byMessageTime(extractor, 'message'),
      summarizer: extractor instanceof ThreadedExtractor ? extractor.summarizer() : new LocalSummarizer(),
      embedder: extractor instanceof ThreadedExtractor ? extractor.embedder(new LocalEmbedder()) : new LocalEmbedder(),
      ...(extractor instanceof ThreadedExtractor ? { close: () => extractor.close() } : {}),
    }
  }
  const delay = config.worker.extractDelayMs
  return delay > 0 ? { ...providers, extractor: slowed(providers.extractor, delay) } : providers
}

/** What a provider's pause reports: given to the composition root, which logs them. */
export interface ProviderEvents {
  onPause?(pause: Pause): void
  onProbeRefused?(pause: Pause, nextInMs: number): void
  onResume?(pause: Pause): void
}

/**
 * The log lines of a pause: one error when it begins, a warning per refused probe (growing apart), one info line when
 * it ends.
 */
export function loggedPause(log: {
  error(fields: object, message: string): void
  warn(fields: object, message: string): void
  info(fields: object, message: string): void
}): ProviderEvents {
  return {
    onPause: (p) =>
      log.error(
        { reason: p.reason, status: p.status, detail: describe(p) },
        `the AI provider refuses requests (${describe(p)}): processing paused until it answers again`,
      ),
    onProbeRefused: (p, ms) =>
      log.warn(
        { reason: p.reason, status: p.status, nextProbeInMs: ms },
        'the AI provider still refuses requests: processing stays paused',
      ),
    onResume: (p) =>
      log.info(
        { reason: p.reason, pausedMs: Date.now() - p.since.getTime() },
        'the AI provider answers again: processing resumed',
      ),
  }
}

/**
 * A summary is derived data (`reindex --summaries` rewrites it): when the model gives none, the batch still applies,
 * with the template summary, and the tokens spent are still counted.
 */
function withTemplateFallback(inner: Summarizer): Summarizer {
  const template = new LocalSummarizer()
  return {
    name: inner.name,
    async summarize(profile, signal, instructions) {
      try {
        return await inner.summarize(profile, signal, instructions)
      } catch (err) {
        // An open circuit is an outage, not a bad answer: the batch waits for the provider.
        if (
          isConnectionError(err) ||
          err instanceof LlmUnavailableError ||
          err instanceof LlmMisconfiguredError ||
          err instanceof LlmRateLimitedError ||
          signal?.aborted
        ) {
          throw err
        }
        const { summary } = await template.summarize(profile, undefined, instructions)
        return { summary, usage: (err as { usage?: Usage }).usage }
      }
    },
  }
}

/** PROFILER_EXTRACT_DELAY_MS: makes every extraction take longer, so tests can act while a batch is in flight. */
function slowed(inner: Extractor, ms: number): Extractor {
  return {
    name: inner.name,
    async extract(req, signal) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms)
        signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true })
      })
      return inner.extract(req, signal)
    },
  }
}
