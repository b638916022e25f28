// Entry of an extraction thread when the service runs from its TypeScript sources (see extract-pool.ts; the build in
// dist/ starts the compiled extract-thread.js instead): ../../threads/source-entry.mjs loads the module.
import { startThread } from '../../threads/source-entry.mjs'

await startThread(new URL('./extract-thread.ts', import.meta.url))
