import type OpenAI from 'openai'
import { PiecewiseLinearCalibration, type CalibrationPoint } from '../calibration.js'
import type { Embedder, ScoreCalibration, Usage } from '../types.js'
import { addUsage, fromApiUsage, llmAttributes, usageAttributes, type LlmClient } from './client.js'
import { inSpan } from '../../tracing/tracing.js'
import { ZERO_USAGE } from '../usage.js'
import { MAX_EMBEDDING_DIMENSIONS } from '../../domain/embedding.js'

/** Native sizes of models we know; others need PROFILER_EMBEDDING_DIMENSIONS. */
const NATIVE_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'nomic-embed-text': 768,
  'mxbai-embed-large': 1024,
  'all-minilm': 384,
}

/**
 * Starting calibrations by model family (docs/evaluation/calibration.md): where a query that matches a profile and one
 * that does not typically fall in raw cosine. They are not measured here (no network); measure your model with `npx tsx
 * bench/calibrate-local.ts --configured` (docs/evaluation/calibration.md) and set PROFILER_EMBEDDING_CALIBRATION to the
 * printed points.
 */
const FAMILY_CALIBRATIONS: [RegExp, CalibrationPoint[]][] = [
  [
    /^text-embedding-3-/,
    [
      [0.1, 0],
      [0.2, 40],
      [0.3, 63],
      [0.45, 80],
      [1, 100],
    ],
  ],
  [
    /^(nomic-embed-text|mxbai-embed-large)/,
    [
      [0.3, 0],
      [0.45, 40],
      [0.55, 63],
      [0.7, 80],
      [1, 100],
    ],
  ],
]

export function parseCalibration(spec: string): CalibrationPoint[] {
  const points = spec.split(',').map((pair) => {
    const [c, s] = pair.split(':').map((x) => Number(x.trim()))
    if (!Number.isFinite(c) || !Number.isFinite(s))
      throw new Error(`PROFILER_EMBEDDING_CALIBRATION: '${pair}' is not cosine:score`)
    return [c!, s!] as const
  })
  return points
}

export function calibrationFor(model: string, override?: string): ScoreCalibration {
  if (override) return new PiecewiseLinearCalibration(parseCalibration(override))
  const known = FAMILY_CALIBRATIONS.find(([re]) => re.test(model))
  return new PiecewiseLinearCalibration(known ? known[1] : FAMILY_CALIBRATIONS[0]![1])
}

const BATCH = 64

/** Embeddings through any OpenAI-compatible /embeddings endpoint, batched, L2-normalised. */
export class OpenAIEmbedder implements Embedder {
  readonly name = 'openai'
  readonly dimension: number
  readonly calibration: ScoreCalibration
  private readonly requestDimensions?: number

  constructor(
    private readonly llm: LlmClient,
    readonly model: string,
    opts: { dimensions?: number; calibration?: string } = {},
  ) {
    const native = NATIVE_DIMENSIONS[model]
    const dimension = opts.dimensions ?? native
    if (!dimension) {
      throw new Error(`Unknown embedding model ${model}: set PROFILER_EMBEDDING_DIMENSIONS to the size of its vectors`)
    }
    if (dimension > MAX_EMBEDDING_DIMENSIONS) {
      throw new Error(
        `${model} makes ${dimension}-dimensional vectors; ` +
          `the search index takes at most ${MAX_EMBEDDING_DIMENSIONS}: set PROFILER_EMBEDDING_DIMENSIONS (e.g. 1536)`,
      )
    }
    this.dimension = dimension
    // Sent whenever configured, whatever the model's name: an Azure deployment or OpenRouter's
    // `openai/text-embedding-3-large` is a model that takes it under a name we cannot recognise. A server that refuses
    // it (vLLM for a model without Matryoshka embeddings) has it dropped for that model (LlmClient.withParams); the
    // vectors' size is then checked below.
    this.requestDimensions = opts.dimensions
    this.calibration = calibrationFor(model, opts.calibration)
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<{ vectors: number[][]; usage?: Usage }> {
    const vectors: number[][] = []
    let usage = ZERO_USAGE
    for (let i = 0; i < texts.length; i += BATCH) {
      const input = texts.slice(i, i + BATCH).map((t) => t || ' ')
      const res = await inSpan(
        'llm.embed',
        { attributes: { ...llmAttributes('embeddings', this.model), 'profiler.llm.inputs': input.length } },
        async (span) => {
          const res = await this.llm.withParams(
            this.model,
            {
              model: this.model,
              input,
              ...(this.requestDimensions ? { dimensions: this.requestDimensions } : {}),
              encoding_format: 'float',
            },
            (sdk, body) => sdk.embeddings.create(body as unknown as OpenAI.EmbeddingCreateParams, { signal }),
            // An abort is the caller leaving, not an outage: not retried, not counted by the breaker, the pause or
            // metrics.
            { signal, endpoint: 'embeddings' },
          )
          span?.setAttributes(usageAttributes(fromApiUsage(res.usage)))
          return res
        },
      )
      usage = addUsage(usage, fromApiUsage(res.usage))
      for (const d of [...res.data].sort((a, b) => a.index - b.index)) {
        const vector = d.embedding as number[]
        if (vector.length !== this.dimension) {
          throw new Error(
            `${this.model} returned ${vector.length}-dimensional vectors, configured ${this.dimension}: ` +
              'fix PROFILER_EMBEDDING_DIMENSIONS',
          )
        }
        const norm = Math.hypot(...vector) || 1
        vectors.push(vector.map((x) => x / norm))
      }
    }
    return { vectors, usage }
  }
}
