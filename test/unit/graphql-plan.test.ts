import { getOperationAST, parse, type GraphQLSchema } from 'graphql'
import { beforeAll, describe, expect, it } from 'vitest'
import { planOperation } from '../../src/graphql/plan.js'
import { profilerSchema } from '../../src/graphql/schema.js'

// What an operation will resolve, counted from its document before it runs (src/graphql/plan.ts): the contexts it
// builds, with the lists they sit in, and what it costs against the request budget.
describe('planOperation', () => {
  let schema: GraphQLSchema
  beforeAll(async () => {
    schema = await profilerSchema()
  })
  const plan = (q: string, variables?: Record<string, unknown>, maxPageSize = 100) => {
    const doc = parse(q)
    return planOperation(schema, doc, getOperationAST(doc)!, variables, { maxPageSize })
  }
  const contexts = (q: string, variables?: Record<string, unknown>) => plan(q, variables).contexts

  it('one per root field, aliases and fragments included; merged fields once; __typename free; at least 1', () => {
    expect(plan('{ profile(id: "a") { status } }')).toEqual({ rootFields: 1, contexts: 0, exports: 0, cost: 1 })
    expect(
      plan('mutation { a: deleteProfile(id: "1") b: deleteProfile(id: "2") c: deleteProfile(id: "3") }').cost,
    ).toBe(3)
    expect(
      plan(
        `query { ...F ... on Query { b: profile(id: "b") { status } } }
         fragment F on Query { a: profile(id: "a") { status } c: profile(id: "c") { status } }`,
      ).cost,
    ).toBe(3)
    expect(plan('{ ...F ...F } fragment F on Query { a: profile(id: "a") { status } }').cost).toBe(1)
    expect(plan('{ profile(id: "a") { status } profile(id: "a") { summary } }').cost).toBe(1)
    expect(plan('{ __typename }').cost).toBe(1)
    expect(plan('{ a: exportProfile(id: "x") b: exportProfile(id: "x") profile(id: "x") { status } }')).toMatchObject({
      rootFields: 3,
      exports: 2,
      cost: 3,
    })
  })

  it('counts context fields through aliases, fragments and merged selections, and charges one each', () => {
    expect(plan('{ profile(id: "a") { context { text } } }')).toMatchObject({ rootFields: 1, contexts: 1, cost: 2 })
    const elevenContexts = Array.from({ length: 11 }, (_, i) => `c${i}: context(maxTokens: ${10 + i}) { tokens }`)
    const eleven = `{ profile(id: "a") { ${elevenContexts.join(' ')} } }`
    expect(plan(eleven)).toMatchObject({ contexts: 11, cost: 12 })
    expect(
      contexts(
        `{ a: profile(id: "a") { ...C } b: profile(id: "b") { ...C ... on Profile { x: context { text } } } }
         fragment C on Profile { context { text } y: context { tokens } }`,
      ),
    ).toBe(5)
    // The same response key twice is one field, resolved once.
    expect(contexts('{ profile(id: "a") { context { text } context { tokens } } }')).toBe(1)
    expect(
      contexts('mutation { forgetProfileValue(id: "a", section: "interests", value: "x") { context { text } } }'),
    ).toBe(1)
    // Evidence fields (a lookup among the profile's passages each) count with them.
    expect(
      plan('{ profile(id: "a") { context { text } e: evidence(field: "interests", value: "x") { extractionsRead } } }'),
    ).toMatchObject({ contexts: 2, cost: 3 })
    expect(
      contexts(
        `{ searchProfiles(pageSize: 20) { profiles { profile {
          evidence(field: "interests", value: "x") { extractionsRead }
        } } } }`,
      ),
    ).toBe(20)
  })

  it('multiplies by the page a search answers: pageSize from a literal, a variable, its default, or 10', () => {
    const q = (args: string) =>
      `query ($n: Int) { searchProfiles${args} { profiles { profile { context { text } } } } }`
    expect(contexts(q('(pageSize: 3)'))).toBe(3)
    expect(contexts(q('(pageSize: $n)'), { n: 7 })).toBe(7)
    expect(contexts(q(''))).toBe(10)
    expect(contexts(q('(pageSize: $n)'))).toBe(10) // the variable not given: the resolver's default
    expect(
      contexts('query ($n: Int = 4) { searchProfiles(pageSize: $n) { profiles { profile { context { text } } } } }'),
    ).toBe(4)
    // Beyond the configured largest page the search is refused; it counts as that page.
    expect(plan(q('(pageSize: 500)'), undefined, 50).contexts).toBe(50)
    expect(
      contexts(
        `{
          a: searchProfiles(pageSize: 2) { profiles { profile { context { text } x: context { tokens } } } }
          b: profile(id: "b") { context { text } }
        }`,
      ),
    ).toBe(5)
    // A search without contexts below costs its root field only.
    expect(plan('{ searchProfiles(pageSize: 100) { profiles { profile { status } } } }')).toMatchObject({
      contexts: 0,
      cost: 1,
    })
  })

  it('applies @skip and @include, with literals and variables', () => {
    expect(
      contexts(
        `{ profile(id: "a") {
          a: context @skip(if: true) { text } b: context @include(if: false) { text } c: context { text }
        } }`,
      ),
    ).toBe(1)
    expect(
      contexts('query ($s: Boolean!) { profile(id: "a") { context @include(if: $s) { text } } }', { s: false }),
    ).toBe(0)
    expect(
      contexts('query ($s: Boolean!) { profile(id: "a") { ... on Profile @skip(if: $s) { context { text } } } }', {
        s: false,
      }),
    ).toBe(1)
  })

  it('a subscription counts the contexts of one event', () => {
    expect(
      plan('subscription { profileStatusChanged { profile { context { text } b: context { tokens } } } }'),
    ).toMatchObject({ rootFields: 1, contexts: 2 })
  })

  it('variables that do not coerce run nothing: only root fields count', () => {
    expect(
      plan('query ($n: Int!) { searchProfiles(pageSize: $n) { profiles { profile { context { text } } } } }', {
        n: 'many',
      }),
    ).toMatchObject({ contexts: 0, cost: 1 })
    // Never throws: a directive's variable missing counts the field (the operation fails before it runs).
    expect(plan('query ($s: Boolean!) { a: profile(id: "a") @skip(if: $s) { status } }')).toMatchObject({
      rootFields: 1,
      contexts: 0,
    })
  })
})
