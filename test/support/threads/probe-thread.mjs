// The JavaScript entry of probe-thread.ts, as src/ai/local/extract-thread.mjs is of extract-thread.ts.
import { startThread } from '../../../src/threads/source-entry.mjs'

await startThread(new URL('./probe-thread.ts', import.meta.url))
