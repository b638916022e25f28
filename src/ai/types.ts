import type { CustomSchema } from '../domain/custom-schema.js'
import type { Extraction, InputType, ProfileContent } from '../domain/profile.js'

export interface Usage {
  promptTokens: number
  completionTokens: number
  totalTokens: number
}

export interface ExtractionInput {
  submissionId: string
  inputType: Exclude<InputType, 'structured'>
  data: string
  /**
   * When the text was written or said (ISO 8601): the reference for relative dates ("yesterday", "last summer", "two
   * years ago") and ages. The submission's event time; absent: now.
   */
  referenceDate?: string
  /** When the service accepted the submission (ISO 8601): no message of it is dated later (src/ai/message-times.ts). */
  receivedAt?: string
}

export interface ExtractRequest {
  /** The profile as it stands before this batch, so a model can recognise repeats, changes and negations. */
  profile: ProfileContent
  /** Pending submissions of one profile, oldest first. */
  submissions: ExtractionInput[]
  /**
   * The app's summary instructions (docs/guides/summary-instructions.md), for a provider that writes the summary too.
   */
  summaryInstructions?: readonly string[]
  /**
   * The submitting app's custom schema, when it has one (every submission of the request comes from apps with this
   * schema). `key` names the app and version, so an extractor may cache what it compiles from the schema.
   */
  customSchema?: { key: string; schema: CustomSchema }
  /**
   * Work no request waits for (a re-extraction): a provider with a shared resource (the local extractor's threads) runs
   * it behind what the worker's batches need.
   */
  background?: boolean
}

export interface ExtractResult {
  /** One extraction per submission, in the same order. */
  extractions: Extraction[]
  usage?: Usage
  promptVersion?: string
  /** The model's summary of the profile after this batch, when the extraction request wrote one. */
  summary?: string
  /** Per submission (same order): the short quote each value came from, kept for provenance. */
  evidence?: Record<string, string>[]
  /**
   * Submissions the provider cannot extract as they are, whatever the retries (too long for the model's context or
   * output cap even alone): their extractions are empty placeholders, and the caller fails them once.
   */
  failed?: UnfitSubmission[]
}

/** A submission the provider cannot extract however often it is asked (the why is in `error`). */
export interface UnfitSubmission {
  submissionId: string
  error: string
}

/** Turns submitted text into proposed profile values. Never merges: the merge module does. */
export interface Extractor {
  readonly name: string
  extract(req: ExtractRequest, signal?: AbortSignal): Promise<ExtractResult>
}

/**
 * Writes the 1-4 sentence, third-person, present-tense summary from profile content only, following the app's summary
 * instructions as far as the provider can (docs/guides/summary-instructions.md).
 */
export interface Summarizer {
  readonly name: string
  summarize(
    profile: ProfileContent,
    signal?: AbortSignal,
    instructions?: readonly string[],
  ): Promise<{ summary: string; usage?: Usage }>
}

/**
 * Maps raw cosine similarity to the 0-100 score (docs/guides/search.md, "Scores and sensitivity"), monotonically, and
 * back.
 */
export interface ScoreCalibration {
  /** Raw cosine similarity in [-1, 1] -> score in [0, 100]. Non-decreasing. */
  toScore(cosine: number): number
  /** Smallest cosine whose score is >= the given score (for thresholds in SQL). */
  toCosine(score: number): number
}

export interface Embedder {
  readonly name: string
  /** Model identifier stored next to each embedding. */
  readonly model: string
  readonly dimension: number
  readonly calibration: ScoreCalibration
  /** Optional: load models or data ahead of the first request. */
  warmUp?(): Promise<unknown> | unknown
  /** One vector per text, same order; vectors are L2-normalised. */
  embed(texts: string[], signal?: AbortSignal): Promise<{ vectors: number[][]; usage?: Usage }>
}

export interface AiProviders {
  extractor: Extractor
  summarizer: Summarizer
  embedder: Embedder
  /** Releases what the providers hold (threads); called when the service closes. */
  close?(): Promise<void>
  /** A remote provider's state as this process sees it (paused, in an outage, ok); none for a local one. */
  status?(): AiProviderStatus
}

/** Why a provider refuses every request until an operator acts: the key, its permissions, the model or URL, billing. */
export type LlmMisconfiguration = 'unauthorized' | 'forbidden' | 'not_found' | 'quota'

/** The AI provider as this process last saw it (GET /readyz, metrics). */
export interface AiProviderStatus {
  provider: string
  /**
   * ok; misconfigured (paused until an operator fixes it, probed now and then); unavailable (an outage: circuit open).
   */
  state: 'ok' | 'misconfigured' | 'unavailable'
  /** When the current pause began (ISO 8601). */
  since?: string
  reason?: LlmMisconfiguration
  /** The provider's status and message, and what to check. */
  detail?: string
}
