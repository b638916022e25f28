// The settings registry: each variable declared once, every default valid, every invalid value named.
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'
import { allSettings } from '../../src/settings.js'

describe('settings registry', () => {
  it('declares each environment variable once, with a description', () => {
    const names = allSettings().map(({ setting }) => setting.env)
    expect(new Set(names).size).toBe(names.length)
    for (const { setting } of allSettings()) expect(setting.description.length, setting.env).toBeGreaterThan(10)
  })

  it('gives a configuration from an empty environment, with the registry defaults in place', () => {
    const config = loadConfig({})
    expect(config.port).toBe(8080)
    expect(config.limits.maxDataBytes).toBe(100 * 1024)
    expect(config.webhooks.secretGraceSeconds).toBe(24 * 3600)
    expect(config.openai.extraBody).toEqual({})
    expect(config.tracing.enabled).toBe(false)
    expect(config).not.toHaveProperty('otel')
  })

  it('places a value at its path and converts it as its schema says', () => {
    const config = loadConfig({
      PROFILER_WORKER_FETCH: '4',
      PROFILER_WEBHOOK_ALLOWED_HOSTS: 'Hooks.Example.com, b.example',
      PROFILER_LLM_HEADERS: 'api-key=abc%20d',
      PROFILER_SIGNUP: 'false',
    })
    expect(config.worker.roundSize).toBe(4)
    expect(config.webhooks.allowedHosts).toEqual(['hooks.example.com', 'b.example'])
    expect(config.openai.headers).toEqual({ 'api-key': 'abc d' })
    expect(config.dashboard.signUp).toBe('closed')
  })

  it('names every invalid setting at once, and never echoes a secret header', () => {
    let error: unknown
    try {
      loadConfig({ PORT: 'eighty', PROFILER_BATCH_SIZE: '0', PROFILER_LLM_HEADERS: 'sk-secret-value' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    const message = (error as Error).message
    expect(message).toMatch(/^Invalid configuration:\n/)
    expect(message).toMatch(/^ {2}PORT: /m)
    expect(message).toMatch(/^ {2}PROFILER_BATCH_SIZE: /m)
    expect(message).toMatch(/^ {2}PROFILER_LLM_HEADERS: item 1 is not key=value/m)
    expect(message).not.toContain('sk-secret-value')
  })

  it('refuses an extra body that is not a JSON object or sets the model', () => {
    expect(() => loadConfig({ PROFILER_LLM_EXTRA_BODY: '[1]' })).toThrow(
      /PROFILER_LLM_EXTRA_BODY: must be a JSON object/,
    )
    expect(() => loadConfig({ PROFILER_LLM_EXTRA_BODY: '{"model":"x"}' })).toThrow(/model cannot be set here/)
  })
})
