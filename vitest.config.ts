import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    // graphql 16 has no "exports" map: Node (type-graphql, Apollo) loads its CJS entry, Vite would pick index.mjs
    // for our own files, and two copies of graphql cannot share a schema. Use the one Node uses.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ when it is not current: the CLI tests run the compiled build.
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // One process per worker runs its files one after another, with the modules it has imported (the app's graph:
    // TypeORM, Apollo, type-graphql, ...) kept: a fresh process per file re-imported them every time (25 integration
    // files: 306 s isolated, 248 s not). Each test file starts and closes services of its own; none mocks a module
    // in a way another could see (the one vi.mock wraps normaliseValue with a counter).
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits for a condition (the browser tests' pages): 1 s by default, which a sign-in (scrypt) on a
    // loaded 2-core machine overran. A condition that never comes still fails, after 15 s.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default'],
  },
})
