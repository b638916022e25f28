import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql'
import { DomainError, invalid } from '../../domain/errors.js'
import type { GqlContext } from '../context.js'
import { decodeCursor, encodeCursor } from '../serializers.js'
import {
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookDeliveryStatusEnum,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEventEnum,
} from '../types/webhook.type.js'

/** The signed-in account's tenant: webhooks are managed where apps are, with a dashboard session, never an app key. */
function tenantOf(context: GqlContext): string {
  if (!context.dashboard) throw new DomainError('FORBIDDEN', 'Webhook operations are only served on /dashboard/graphql')
  if (!context.dashboard.account)
    throw new DomainError('UNAUTHENTICATED', 'Sign in first: this operation needs a dashboard session')
  return context.dashboard.account.tenantId
}

const MAX_PAGE = 100

/** Webhook endpoints of the account's apps, their secrets, test deliveries and the delivery log. */
@Resolver()
export class WebhookResolver {
  @Query(() => [WebhookEndpoint], { description: "An app's webhook endpoints" })
  async webhookEndpoints(
    @Arg('appId', () => ID) appId: string,
    @Ctx() context: GqlContext,
  ): Promise<WebhookEndpoint[]> {
    return context.services.webhooks.endpoints(tenantOf(context), appId) as Promise<WebhookEndpoint[]>
  }

  @Query(() => WebhookDeliveryPage, { description: "An endpoint's deliveries, newest first" })
  async webhookDeliveries(
    @Arg('endpointId', () => ID) endpointId: string,
    @Arg('status', () => WebhookDeliveryStatusEnum, { nullable: true }) status: WebhookDeliveryStatusEnum | null,
    @Arg('first', () => Int, { defaultValue: 20, description: '1-100' }) first: number,
    @Arg('after', () => String, { nullable: true, description: 'endCursor of the previous page' }) after: string | null,
    @Ctx() context: GqlContext,
  ): Promise<WebhookDeliveryPage> {
    if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE)
      throw invalid(`Invalid argument first: must be an integer from 1 to ${MAX_PAGE}`)
    let before: number
    try {
      before = decodeCursor(after)
    } catch {
      throw invalid('Invalid argument after: not a cursor of this list')
    }
    const rows = await context.services.webhooks.deliveries(tenantOf(context), endpointId, {
      status: status ?? undefined,
      before,
      limit: first + 1,
    })
    const page = rows.slice(0, first)
    return {
      nodes: page as WebhookDelivery[],
      pageInfo: {
        endCursor: page.length ? encodeCursor(page[page.length - 1]!.seq) : null,
        hasNextPage: rows.length > first,
      },
    }
  }

  @Mutation(() => WebhookEndpointWithSecret, {
    description:
      'Adds an endpoint to an app; its signing secret is shown only here. The URL must pass the SSRF policy ' +
      '(VALIDATION_FAILED says why not)',
  })
  async createWebhookEndpoint(
    @Arg('appId', () => ID) appId: string,
    @Arg('url', () => String) url: string,
    @Arg('events', () => [WebhookEventEnum]) events: WebhookEventEnum[],
    @Arg('description', () => String, { nullable: true }) description: string | null,
    @Ctx() context: GqlContext,
  ): Promise<WebhookEndpointWithSecret> {
    return context.services.webhooks.create(tenantOf(context), appId, {
      url,
      events,
      description,
    }) as Promise<WebhookEndpointWithSecret>
  }

  @Mutation(() => WebhookEndpoint, {
    description: 'Changes what is given; enabling an endpoint clears why it was disabled',
  })
  async updateWebhookEndpoint(
    @Arg('id', () => ID) id: string,
    @Arg('url', () => String, { nullable: true }) url: string | null,
    @Arg('events', () => [WebhookEventEnum], { nullable: true }) events: WebhookEventEnum[] | null,
    @Arg('description', () => String, { nullable: true, description: 'An empty string removes it' }) description:
      | string
      | null,
    @Arg('enabled', () => Boolean, { nullable: true }) enabled: boolean | null,
    @Ctx() context: GqlContext,
  ): Promise<WebhookEndpoint> {
    return context.services.webhooks.update(tenantOf(context), id, {
      url,
      events,
      description: description ?? undefined,
      enabled,
    }) as Promise<WebhookEndpoint>
  }

  @Mutation(() => Boolean, {
    description: 'Deletes the endpoint and its delivery log; what is pending for it is not sent',
  })
  async deleteWebhookEndpoint(@Arg('id', () => ID) id: string, @Ctx() context: GqlContext): Promise<boolean> {
    await context.services.webhooks.delete(tenantOf(context), id)
    return true
  }

  @Mutation(() => WebhookEndpointWithSecret, {
    description:
      'A new signing secret (shown only here); the old one still signs, as a second v1, for graceSeconds ' +
      '(default: the configured grace)',
  })
  async rotateWebhookSecret(
    @Arg('id', () => ID) id: string,
    @Arg('graceSeconds', () => Int, { nullable: true, description: '0 to 604800' }) graceSeconds: number | null,
    @Ctx() context: GqlContext,
  ): Promise<WebhookEndpointWithSecret> {
    return context.services.webhooks.rotateSecret(
      tenantOf(context),
      id,
      graceSeconds,
    ) as Promise<WebhookEndpointWithSecret>
  }

  @Mutation(() => WebhookDelivery, {
    description:
      'Sends a webhook.test event to the endpoint now (one attempt) and returns the delivery with its outcome',
  })
  async sendTestWebhook(@Arg('id', () => ID) id: string, @Ctx() context: GqlContext): Promise<WebhookDelivery> {
    return context.services.webhooks.sendTest(tenantOf(context), id) as Promise<WebhookDelivery>
  }

  @Mutation(() => WebhookDelivery, { description: 'Tries a finished delivery again now, with the same event id' })
  async redeliverWebhook(@Arg('id', () => ID) id: string, @Ctx() context: GqlContext): Promise<WebhookDelivery> {
    return context.services.webhooks.redeliver(tenantOf(context), id) as Promise<WebhookDelivery>
  }
}
