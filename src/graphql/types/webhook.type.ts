import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql'
import { WEBHOOK_EVENTS } from '../../domain/webhooks.js'
import { PageInfo } from './profile.type.js'

export enum WebhookEventEnum {
  PROFILE_READY = 'profile.ready',
  PROFILE_DELETED = 'profile.deleted',
  SUBMISSION_FAILED = 'submission.failed',
}
// The enum must name every domain event, and nothing else.
const _same: [`${WebhookEventEnum}`] extends [(typeof WEBHOOK_EVENTS)[number]]
  ? (typeof WEBHOOK_EVENTS)[number] extends `${WebhookEventEnum}`
    ? true
    : never
  : never = true
void _same

export enum WebhookDeliveryStatusEnum {
  PENDING = 'pending',
  DELIVERED = 'delivered',
  FAILED = 'failed',
}

registerEnumType(WebhookEventEnum, {
  name: 'WebhookEvent',
  description: 'An event a webhook endpoint can subscribe to',
})
registerEnumType(WebhookDeliveryStatusEnum, {
  name: 'WebhookDeliveryStatus',
  description: 'PENDING until delivered (a 2xx) or given up after the last attempt (FAILED)',
})

@ObjectType({
  description: "A receiver of an app's webhook events; its signing secret is shown only when created or rotated",
  simpleResolvers: true,
})
export class WebhookEndpoint {
  @Field(() => ID) id!: string
  @Field(() => ID) appId!: string
  @Field(() => String) url!: string
  @Field(() => String, { nullable: true }) description!: string | null
  @Field(() => [WebhookEventEnum]) events!: WebhookEventEnum[]
  @Field(() => Boolean) enabled!: boolean
  @Field(() => String, {
    nullable: true,
    description: 'Why it was disabled by the system (the receiver answered 410 Gone)',
  })
  disabledReason!: string | null
  @Field(() => String, {
    nullable: true,
    description: 'Until when the secret replaced by the last rotation still signs (a second v1)',
  })
  previousSecretExpiresAt!: string | null
  @Field(() => String) createdAt!: string
  @Field(() => String) updatedAt!: string
}

@ObjectType({
  description: 'An endpoint with its new signing secret: the only time the secret is shown',
  simpleResolvers: true,
})
export class WebhookEndpointWithSecret {
  @Field(() => WebhookEndpoint) endpoint!: WebhookEndpoint
  @Field(() => String) secret!: string
}

@ObjectType({ simpleResolvers: true })
export class WebhookAttempt {
  @Field(() => Int) attempt!: number
  @Field(() => String) at!: string
  @Field(() => Int) durationMs!: number
  @Field(() => Int, { nullable: true, description: "The receiver's HTTP status; null when there was no answer" })
  statusCode!: number | null
  @Field(() => String, { nullable: true }) error!: string | null
}

@ObjectType({ description: 'One event for one endpoint: the outbox row and its delivery log', simpleResolvers: true })
export class WebhookDelivery {
  @Field(() => ID) id!: string
  @Field(() => ID) endpointId!: string
  @Field(() => ID, { description: 'Sent as Profiler-Event-Id: the same on every attempt, for the receiver to dedupe' })
  eventId!: string
  @Field(() => String, { description: 'profile.ready, profile.deleted, submission.failed or webhook.test' })
  event!: string
  @Field(() => ID, { nullable: true }) profileId!: string | null
  @Field(() => Boolean) test!: boolean
  @Field(() => WebhookDeliveryStatusEnum) status!: WebhookDeliveryStatusEnum
  @Field(() => Int) attempts!: number
  @Field(() => String, { nullable: true, description: 'When the next attempt is due (pending only)' }) nextAttemptAt!:
    | string
    | null
  @Field(() => Int, { nullable: true }) lastStatusCode!: number | null
  @Field(() => String, { nullable: true }) lastError!: string | null
  @Field(() => String) createdAt!: string
  @Field(() => String, { nullable: true }) finishedAt!: string | null
  @Field(() => [WebhookAttempt], { description: 'Every attempt, oldest first' }) attemptLog!: WebhookAttempt[]
}

@ObjectType({ simpleResolvers: true })
export class WebhookDeliveryPage {
  @Field(() => [WebhookDelivery]) nodes!: WebhookDelivery[]
  @Field(() => PageInfo) pageInfo!: PageInfo
}
