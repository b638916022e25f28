import type { ApolloServerPlugin } from '@apollo/server'
import { Kind, type OperationDefinitionNode } from 'graphql'
import type { Metrics } from '../metrics/metrics.js'
import type { GqlContext } from './context.js'

/**
 * The operation label: its root field when it selects one (`profile`, `searchProfiles`), `multiple` when several.
 * Root fields come from the schema (the document is validated by then), so the label set is closed; the client's
 * operationName is free text and would let any client create series.
 */
export function operationLabel(op: OperationDefinitionNode): string {
  let name: string | undefined
  for (const s of op.selectionSet.selections) {
    if (s.kind !== Kind.FIELD) return 'multiple'
    if (s.name.value === '__typename') continue
    if (name !== undefined && name !== s.name.value) return 'multiple'
    name = s.name.value
  }
  return name ?? '__typename'
}

/** Latency of every GraphQL operation over HTTP, by endpoint, type, operation label and outcome. */
export function operationMetrics(metrics: Metrics, endpoint: string): ApolloServerPlugin<GqlContext> {
  return {
    async requestDidStart() {
      const start = performance.now()
      let type = 'unknown'
      let operation = 'unknown'
      return {
        async didResolveOperation({ operation: op }) {
          if (!op) return
          type = op.operation
          operation = operationLabel(op)
        },
        async willSendResponse({ response }) {
          const ok = response.body.kind === 'single' ? !response.body.singleResult.errors?.length : true
          metrics.graphqlOperation(endpoint, type, operation, ok, (performance.now() - start) / 1000)
        },
      }
    },
  }
}
