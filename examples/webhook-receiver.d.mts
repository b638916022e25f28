import type http from 'node:http'

export function verifyProfilerSignature(
  secrets: string | string[],
  header: string | string[] | undefined,
  rawBody: string | Buffer,
  opts?: { toleranceSeconds?: number; now?: number },
): boolean

export function createReceiver(secrets: string | string[], onEvent: (event: { id: string; type: string; created_at: string; data: Record<string, unknown> }) => void): http.Server
