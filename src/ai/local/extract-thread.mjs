// Entry of an extraction thread when the service runs from its TypeScript sources (see extract-pool.ts; the build in
// dist/ starts the compiled extract-thread.js instead): threads do not inherit tsx's loader, so register it here, then
// load the TypeScript worker. Plain JavaScript so that Node can start it under tsx, vitest or plain node alike.
import { register } from 'tsx/esm/api'

register()
await import('./extract-thread.ts')
