import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit'
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases'
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth'
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives'
import {
  Kind,
  NoSchemaIntrospectionCustomRule,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type OperationDefinitionNode,
  type SelectionSetNode,
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
    maxDepthRule({ n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true, ...report }) as unknown as ValidationRule,
    costLimitRule({ maxCost: limits.maxCost, ignoreIntrospection: true, flattenFragments: true, ...report }) as unknown as ValidationRule,
    maxAliasesRule({ n: limits.maxAliases, ...report }) as unknown as ValidationRule,
    maxDirectivesRule({ n: limits.maxDirectives, ...report }) as unknown as ValidationRule,
  ]
  if (production) rules.push(NoSchemaIntrospectionCustomRule)
  return rules
}

/**
 * What an operation costs against the request budget: one per root field (aliases included), so fifteen aliased
 * mutations cost fifteen, like fifteen requests. `__typename` is free; at least 1.
 */
export function operationCost(operation: OperationDefinitionNode, document: DocumentNode): number {
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d)
  const seen = new Set<string>()
  const count = (set: SelectionSetNode): number => {
    let n = 0
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) n += s.name.value === '__typename' ? 0 : 1
      else if (s.kind === Kind.INLINE_FRAGMENT) n += count(s.selectionSet)
      else {
        const f = fragments.get(s.name.value)
        // A fragment spread twice at the root selects the same fields once.
        if (f && !seen.has(f.name.value)) {
          seen.add(f.name.value)
          n += count(f.selectionSet)
        }
      }
    }
    return n
  }
  return Math.max(1, count(operation.selectionSet))
}
