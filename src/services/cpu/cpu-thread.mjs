// Entry of a CPU thread when the service runs from its TypeScript sources (see src/threads/pool.ts threadEntry; the
// build in dist/ starts the compiled cpu-thread.js instead): ../../threads/source-entry.mjs loads the module.
import { startThread } from '../../threads/source-entry.mjs'

await startThread(new URL('./cpu-thread.ts', import.meta.url))
