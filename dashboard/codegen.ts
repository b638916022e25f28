// GraphQL Code Generator for the dashboard: reads every graphql(`...`) document under dashboard/src, validates it
// against schema/dashboard.graphql (an unknown field, argument or variable type fails the run) and writes the typed
// documents to dashboard/src/generated/. Run from the repository root: npm run codegen (npm run schema runs it too).
// test/unit/dashboard-codegen.test.ts fails when the committed output is stale.
import type { CodegenConfig } from '@graphql-codegen/cli'

const config: CodegenConfig = {
  schema: 'schema/dashboard.graphql',
  documents: ['dashboard/src/**/*.ts', '!dashboard/src/generated/**'],
  ignoreNoDocuments: false,
  generates: {
    'dashboard/src/generated/': {
      preset: 'client',
      presetConfig: {
        // Plain result types: pages read fragment fields directly, with no useFragment() unmasking.
        fragmentMasking: false,
      },
      config: {
        // Documents are plain strings carrying their types (TypedDocumentString): no GraphQL parser or AST in the bundle.
        documentMode: 'string',
        enumsAsTypes: true,
        useTypeImports: true,
        skipTypename: true,
        onlyOperationTypes: true,
        scalars: { JSONObject: 'Record<string, unknown>' },
      },
    },
  },
}

export default config
