// Entry of a CPU thread when the service runs from its TypeScript sources (see src/threads/pool.ts threadEntry; the build
// in dist/ starts the compiled cpu-thread.js instead): threads do not inherit tsx's loader, so register it here, then
// load the TypeScript module. Plain JavaScript so that Node can start it under tsx, vitest or plain node alike.
import { register } from 'tsx/esm/api'

register()
await import('./cpu-thread.ts')
