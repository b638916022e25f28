import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit'
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases'
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth'
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives'
import {
  NoSchemaIntrospectionCustomRule,
  type GraphQLError,
  type ValidationContext,
  type ValidationRule,
} from 'graphql'
import type { GraphQLLimits } from '../config.js'

/**
 * Depth, cost, alias and directive limits (graphql-armor's rules), plus no introspection in production. Used by
 * Apollo for HTTP and again in graphql-ws's onSubscribe, which runs none of Apollo's rules or plugins.
 * Token limits are the parser's own (`maxTokens`).
 */
export function limitRules(limits: GraphQLLimits, production: boolean): ValidationRule[] {
  // Report, don't throw: armor's default (propagateOnRejection) throws out of validate(), which Apollo turns into a
  // 500 and graphql-ws into closing the whole socket.
  const report = {
    propagateOnRejection: false,
    onReject: [(ctx: ValidationContext | null, err: GraphQLError) => ctx?.reportError(err)],
  }
  const rules: ValidationRule[] = [
    maxDepthRule({
      n: limits.maxDepth,
      ignoreIntrospection: true,
      flattenFragments: true,
      ...report,
    }) as unknown as ValidationRule,
    costLimitRule({
      maxCost: limits.maxCost,
      ignoreIntrospection: true,
      flattenFragments: true,
      ...report,
    }) as unknown as ValidationRule,
    maxAliasesRule({ n: limits.maxAliases, ...report }) as unknown as ValidationRule,
    maxDirectivesRule({ n: limits.maxDirectives, ...report }) as unknown as ValidationRule,
  ]
  if (production) rules.push(NoSchemaIntrospectionCustomRule)
  return rules
}
