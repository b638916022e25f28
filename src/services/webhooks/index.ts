import type { Logger } from 'pino'
import type { DataSource } from 'typeorm'
import type { Config } from '../../config.js'
import { WebhookRepository } from '../../db/webhook.repository.js'
import { WebhookService } from '../webhook.service.js'
import { WebhookDeliverer, WebhookDispatcher } from './dispatcher.js'
import { WebhookDueIndex } from './due-index.js'
import { SecretBox } from './secrets.js'
import { WebhookSender } from './sender.js'
import { UrlPolicy } from './url-policy.js'

/** The webhook parts of a process, from the configuration: the management service and the worker's dispatcher. */
export function buildWebhooks(
  ds: DataSource,
  config: Config,
  opts: { log: Logger; embeddedDataDir?: string; sharded?: boolean },
) {
  const settings = config.webhooks
  const policy = new UrlPolicy({
    allowPrivate: settings.allowPrivate,
    allowedHosts: settings.allowedHosts,
    allowedCidrs: settings.allowedCidrs,
  })
  const secrets = SecretBox.open({ key: settings.encryptionKey, dataDir: opts.embeddedDataDir })
  if (!secrets.encrypts)
    opts.log.warn(
      'PROFILER_WEBHOOK_ENCRYPTION_KEY is not set: webhook signing secrets are stored unencrypted in the database',
    )
  const repo = new WebhookRepository()
  const deliverer = new WebhookDeliverer(
    ds,
    repo,
    new WebhookSender(policy, settings.timeoutMs),
    secrets,
    opts.log,
    {
      concurrency: settings.concurrency,
      pollMs: settings.pollMs,
      timeoutMs: settings.timeoutMs,
      retryBaseMs: settings.retryBaseMs,
      maxAttempts: settings.maxAttempts,
      logDays: settings.logDays,
    },
    opts.sharded ? new WebhookDueIndex(ds, repo) : undefined,
  )
  return {
    service: new WebhookService(ds, policy, secrets, deliverer, { graceSeconds: settings.secretGraceSeconds }),
    deliverer,
    dispatcher: new WebhookDispatcher(deliverer, opts.log),
  }
}
