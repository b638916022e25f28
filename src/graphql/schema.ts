import 'reflect-metadata'
import type { GraphQLSchema } from 'graphql'
import { buildSchema } from 'type-graphql'
import { errorBoundary } from './error-boundary.js'
import { AccountResolver } from './resolvers/account.resolver.js'
import { CustomSchemaResolver } from './resolvers/custom-schema.resolver.js'
import { SummaryInstructionsResolver } from './resolvers/summary-instructions.resolver.js'
import { ExportResolver } from './resolvers/export.resolver.js'
import { PassageResolver } from './resolvers/passage.resolver.js'
import { ProfileResolver } from './resolvers/profile.resolver.js'
import { ProvenanceResolver } from './resolvers/provenance.resolver.js'
import { SearchResolver } from './resolvers/search.resolver.js'
import { StatusResolver } from './resolvers/status.resolver.js'
import { WebhookResolver } from './resolvers/webhook.resolver.js'

let built: Promise<GraphQLSchema> | undefined

/**
 * type-graphql requires a pubSub whenever a schema has subscriptions, even when each one brings its own `subscribe`
 * function, as ours do (they read the EventBus through the services). Topic-based subscriptions are not used.
 */
const noTopics = {
  publish() {
    throw new Error('topic-based subscriptions are not used: publish on the EventBus')
  },
  subscribe(): AsyncIterable<unknown> {
    throw new Error('topic-based subscriptions are not used: give @Subscription a subscribe function')
  },
}

/** The schema is built from the resolver classes once per process (type-graphql's metadata is global). */
export function profilerSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers: [
      ProfileResolver,
      ProvenanceResolver,
      PassageResolver,
      SearchResolver,
      StatusResolver,
      ExportResolver,
      CustomSchemaResolver,
      SummaryInstructionsResolver,
    ],
    globalMiddlewares: [errorBoundary],
    pubSub: noTopics,
    validate: false,
  })
  return built
}

let builtDashboard: Promise<GraphQLSchema> | undefined

/**
 * The dashboard's schema (/dashboard/graphql): the API's operations plus accounts, apps and their webhooks, which the
 * API lacks.
 */
export function dashboardSchema(): Promise<GraphQLSchema> {
  builtDashboard ??= buildSchema({
    resolvers: [
      ProfileResolver,
      ProvenanceResolver,
      PassageResolver,
      SearchResolver,
      StatusResolver,
      ExportResolver,
      AccountResolver,
      WebhookResolver,
      CustomSchemaResolver,
      SummaryInstructionsResolver,
    ],
    globalMiddlewares: [errorBoundary],
    pubSub: noTopics,
    validate: false,
  })
  return builtDashboard
}
