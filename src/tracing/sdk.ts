import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace'
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions'
import type { Logger } from 'pino'
import type { TracingConfig } from '../config.js'

// The OpenTelemetry SDK, loaded only when tracing is on. Configured from TracingConfig (the OTEL_* variables as
// src/config.ts read them), not from the environment: sdk-trace reads none, and the OTLP exporter is given its URL,
// headers and timeout (it still reads its TLS and compression variables itself).

function sampler(cfg: TracingConfig['sampler']): Sampler {
  const ratio = () => new TraceIdRatioBasedSampler(cfg.ratio)
  switch (cfg.name) {
    case 'always_on':
      return new AlwaysOnSampler()
    case 'always_off':
      return new AlwaysOffSampler()
    case 'traceidratio':
      return ratio()
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() })
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() })
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() })
  }
}

async function exporter(cfg: TracingConfig): Promise<SpanExporter> {
  if (cfg.exporter === 'console') return new ConsoleSpanExporter()
  const { url, headers, timeoutMs } = cfg.otlp
  const { OTLPTraceExporter } =
    cfg.otlp.protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto')
  return new OTLPTraceExporter({ url, headers, timeoutMillis: timeoutMs })
}

/**
 * Registers the SDK with the API (provider, context manager, W3C propagator); returns what flushes and unregisters it.
 */
export async function startSdk(cfg: TracingConfig, log: Logger, injected?: SpanExporter): Promise<() => Promise<void>> {
  // The SDK's own complaints (a collector that cannot be reached, a full queue) go to the service's log.
  diag.setLogger(
    {
      error: (msg, ...args) => log.warn({ args }, `opentelemetry: ${msg}`),
      warn: (msg, ...args) => log.warn({ args }, `opentelemetry: ${msg}`),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  )
  const processor = injected
    ? new SimpleSpanProcessor({ exporter: injected })
    : new BatchSpanProcessor({ exporter: await exporter(cfg), scheduledDelayMillis: cfg.scheduleDelayMs })
  const provider = new TracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ ...cfg.resourceAttributes, [ATTR_SERVICE_NAME]: cfg.serviceName }),
    ),
    sampler: sampler(cfg.sampler),
    spanProcessors: [processor],
  })
  const contextManager = new AsyncLocalStorageContextManager().enable()
  if (
    !context.setGlobalContextManager(contextManager) ||
    !propagation.setGlobalPropagator(new W3CTraceContextPropagator()) ||
    !trace.setGlobalTracerProvider(provider)
  ) {
    contextManager.disable()
    throw new Error('OpenTelemetry is already registered in this process')
  }
  return async () => {
    try {
      await provider.shutdown()
    } finally {
      trace.disable()
      propagation.disable()
      context.disable()
      diag.disable()
    }
  }
}
