import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getVariableValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  typeFromAST,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type NamedTypeNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql'
import { DEFAULT_PAGE_SIZE } from '../domain/requests.js'
import { invalid } from '../domain/errors.js'

/**
 * Profile.context fields one operation may resolve: the request budget charges them, but each builds a text of a
 * profile that may hold thousands of facts (and may embed), so one operation cannot ask for a hundred of them.
 * Profile.evidence fields (a full-text lookup among a profile's passages each) count with them.
 */
export const MAX_CONTEXTS_PER_OPERATION = 10

/** What an operation will do, counted from its document and variables before anything runs. */
export interface OperationPlan {
  /** Root fields, aliases included (fields merged by GraphQL count once; `__typename` is free). */
  rootFields: number
  /**
   * Profile.context fields it resolves: each times the length of the lists it sits in (per event, for a subscription).
   */
  contexts: number
  /** exportProfile fields. */
  exports: number
  /**
   * What it costs against the request budget: one per root field and one per context (a REST context call costs one).
   */
  cost: number
}

export interface PlanOptions {
  /** The longest page searchProfiles answers (PROFILER_MAX_PAGE_SIZE). */
  maxPageSize: number
}

/**
 * Lists whose length the arguments of the field above them bound (SearchResult.profiles: searchProfiles' pageSize).
 * Any other list with a context below it has no known length: it counts as unbounded, so the operation is refused.
 */
const LIST_LENGTHS: Record<string, (parentArgs: Record<string, unknown>, options: PlanOptions) => number> = {
  'SearchResult.profiles': (args, o) =>
    Math.min(typeof args.pageSize === 'number' && args.pageSize > 0 ? args.pageSize : DEFAULT_PAGE_SIZE, o.maxPageSize),
}

/**
 * Counts what `operation` would resolve, as graphql-js will execute it: fragments and inline fragments flattened,
 * fields of one response key merged, `@skip`/`@include` applied, arguments read from literals, variables or their
 * defaults. Variables that do not coerce make execution fail before any resolver runs: then only root fields count.
 */
export function planOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | null | undefined,
  options: PlanOptions,
): OperationPlan {
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d)
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 1 })
  const vars = 'coerced' in coerced ? coerced.coerced : {}
  const root = schema.getRootType(operation.operation)

  const included = (node: { directives?: readonly DirectiveNode[] }) => {
    try {
      return (
        !getDirectiveValues(GraphQLSkipDirective, node, vars)?.if &&
        getDirectiveValues(GraphQLIncludeDirective, node, vars)?.if !== false
      )
    } catch {
      return true // a variable that does not coerce: execution fails before this runs; counting it is the safe side
    }
  }
  const applies = (condition: NamedTypeNode | undefined, type: GraphQLObjectType) => {
    if (!condition) return true
    const conditionType = typeFromAST(schema, condition)
    return (
      conditionType === type ||
      (!!conditionType && isAbstractType(conditionType) && schema.isSubType(conditionType, type))
    )
  }
  /** The fields selected on an object of `type`, by response key (graphql-js's collectFields). */
  const collect = (type: GraphQLObjectType, sets: readonly SelectionSetNode[]) => {
    const fields = new Map<string, FieldNode[]>()
    const visited = new Set<string>()
    const walk = (set: SelectionSetNode) => {
      for (const s of set.selections) {
        if (!included(s)) continue
        if (s.kind === Kind.FIELD) {
          const key = s.alias?.value ?? s.name.value
          fields.set(key, [...(fields.get(key) ?? []), s])
        } else if (s.kind === Kind.INLINE_FRAGMENT) {
          if (applies(s.typeCondition, type)) walk(s.selectionSet)
        } else if (!visited.has(s.name.value)) {
          visited.add(s.name.value)
          const fragment = fragments.get(s.name.value)
          if (fragment && applies(fragment.typeCondition, type)) walk(fragment.selectionSet)
        }
      }
    }
    for (const set of sets) walk(set)
    return fields
  }
  /**
   * Context fields resolved under one object of `type` selected by `sets`; `args` are those of the field that returned
   * it.
   */
  const contextsUnder = (
    type: GraphQLObjectType,
    sets: readonly SelectionSetNode[],
    args: Record<string, unknown>,
  ): number => {
    let total = 0
    for (const nodes of collect(type, sets).values()) {
      const name = nodes[0]!.name.value
      const def = type.getFields()[name]
      if (!def) continue // __typename, or introspection
      if (type.name === 'Profile' && (name === 'context' || name === 'evidence')) {
        total += 1
        continue
      }
      const subsets = nodes.flatMap((f) => (f.selectionSet ? [f.selectionSet] : []))
      if (!subsets.length) continue
      let fieldArgs: Record<string, unknown> = {}
      try {
        fieldArgs = getArgumentValues(def, nodes[0]!, vars)
      } catch {
        // An argument that does not coerce fails this field before it resolves anything below.
        continue
      }
      const named = getNamedType(def.type)
      const objects = isObjectType(named) ? [named] : isAbstractType(named) ? schema.getPossibleTypes(named) : []
      const inner = Math.max(0, ...objects.map((t) => contextsUnder(t, subsets, fieldArgs)))
      if (inner) total += inner * listLength(type, name, def.type, args)
    }
    return total
  }
  /** How many objects a field of `type` returns: the product of its list levels' lengths (1 when it is no list). */
  const listLength = (
    type: GraphQLObjectType,
    name: string,
    fieldType: GraphQLOutputType,
    parentArgs: Record<string, unknown>,
  ): number => {
    let count = 1
    for (let cur = fieldType; ; ) {
      if (isNonNullType(cur)) cur = cur.ofType
      else if (isListType(cur)) {
        const known = LIST_LENGTHS[`${type.name}.${name}`]
        count *= known ? known(parentArgs, options) : Infinity
        cur = cur.ofType
      } else return count
    }
  }

  let rootFields = 0
  let contexts = 0
  let exports = 0
  if (root) {
    for (const nodes of collect(root, [operation.selectionSet]).values()) {
      const name = nodes[0]!.name.value
      if (name === '__typename') continue
      rootFields++
      if (operation.operation === 'query' && name === 'exportProfile') exports++
    }
    if ('coerced' in coerced) contexts = contextsUnder(root, [operation.selectionSet], {})
  }
  rootFields = Math.max(1, rootFields)
  return { rootFields, contexts, exports, cost: rootFields + contexts }
}

/** The error an operation over the context bound is refused with, before anything runs. */
export function tooManyContexts(plan: OperationPlan) {
  const resolved = Number.isFinite(plan.contexts) ? `${plan.contexts}` : 'an unbounded number of'
  return invalid(
    `Too many context (and evidence) fields: at most ${MAX_CONTEXTS_PER_OPERATION} in one operation; this one ` +
      `would resolve ${resolved} ` +
      '(aliases, fragments and the pageSize of searchProfiles count)',
  )
}
