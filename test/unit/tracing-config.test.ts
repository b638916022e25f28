// The OTEL_* variables as src/config.ts reads them: tracing is off unless an endpoint or an exporter is given, the
// standard precedence (signal-specific over general, OTEL_SDK_DISABLED over everything), and bad values fail fast.
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'
import { spanContextOf } from '../../src/tracing/tracing.js'

const tracing = (env: Record<string, string>) => loadConfig(env).tracing

describe('tracing configuration', () => {
  it('is off by default, and with OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none whatever else is set', () => {
    expect(tracing({}).enabled).toBe(false)
    expect(tracing({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' }).enabled).toBe(false)
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).enabled).toBe(false)
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).enabled).toBe(false)
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'false' }).enabled).toBe(true)
  })

  it('is on with an endpoint or a named exporter; the traces URL follows the standard rules', () => {
    const base = tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })
    expect(base).toMatchObject({
      enabled: true,
      exporter: 'otlp',
      serviceName: 'profiler',
      otlp: { url: 'http://collector:4318/v1/traces', protocol: 'http/protobuf', timeoutMs: 10_000 },
    })
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/prefix/' }).otlp.url).toBe(
      'http://collector:4318/prefix/v1/traces',
    )
    const specific = tracing({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:9999/x',
    })
    expect(specific.otlp.url).toBe('http://b:9999/x')
    expect(tracing({ OTEL_TRACES_EXPORTER: 'otlp' })).toMatchObject({
      enabled: true,
      otlp: { url: 'http://localhost:4318/v1/traces' },
    })
    expect(tracing({ OTEL_TRACES_EXPORTER: 'console' })).toMatchObject({ enabled: true, exporter: 'console' })
    expect(tracing({ OTEL_TRACES_EXPORTER: 'console', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318' }).exporter).toBe(
      'console',
    )
  })

  it('reads protocol, headers, timeout, service name, resource attributes, sampler; per-signal first', () => {
    const t = tracing({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'a=1, b=two%20words',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'b=3',
      OTEL_EXPORTER_OTLP_TIMEOUT: '5000',
      OTEL_SERVICE_NAME: 'profiler-eu',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.namespace=people',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    })
    expect(t).toMatchObject({
      serviceName: 'profiler-eu',
      resourceAttributes: { 'deployment.environment': 'prod', 'service.namespace': 'people' },
      otlp: { protocol: 'http/json', headers: { a: '1', b: '3' }, timeoutMs: 5000 },
      sampler: { name: 'parentbased_traceidratio', ratio: 0.25 },
    })
    expect(tracing({ OTEL_EXPORTER_OTLP_HEADERS: 'k=two%20words' }).otlp.headers).toEqual({ k: 'two words' })
  })

  it('fails fast on what it cannot honour', () => {
    for (const env of [
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/xml' },
      { OTEL_TRACES_EXPORTER: 'zipkin' },
      { OTEL_TRACES_EXPORTER: 'otlp,jaeger' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' },
      { OTEL_EXPORTER_OTLP_HEADERS: 'novalue' },
      { OTEL_EXPORTER_OTLP_HEADERS: '=v' },
      { OTEL_EXPORTER_OTLP_HEADERS: 'k=%E0%A4%A' },
      { OTEL_RESOURCE_ATTRIBUTES: 'a' },
      { OTEL_TRACES_SAMPLER: 'jaeger_remote' },
      { OTEL_TRACES_SAMPLER_ARG: '2' },
      { OTEL_SDK_DISABLED: 'maybe' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError)
    }
  })
})

describe('a stored traceparent', () => {
  it('is read back only when it is a well-formed version-00 traceparent', () => {
    const tid = 'a'.repeat(32)
    const sid = 'b'.repeat(16)
    expect(spanContextOf(`00-${tid}-${sid}-01`)).toMatchObject({
      traceId: tid,
      spanId: sid,
      traceFlags: 1,
      isRemote: true,
    })
    expect(spanContextOf(`00-${tid}-${sid}-00`)?.traceFlags).toBe(0)
    for (const bad of [
      null,
      undefined,
      '',
      'x',
      `01-${tid}-${sid}-01`,
      `00-${'0'.repeat(32)}-${sid}-01`,
      `00-${tid}-${'0'.repeat(16)}-01`,
      `00-${tid}-${sid}-01-x`,
      ` 00-${tid}-${sid}-01`,
      `00-${tid.toUpperCase()}-${sid}-01`,
    ]) {
      expect(spanContextOf(bad), String(bad)).toBeUndefined()
    }
  })
})
