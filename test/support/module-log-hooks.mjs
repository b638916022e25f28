// The resolve hook of module-log.mjs.
import fs from 'node:fs'

const file = process.env.PROFILER_TEST_MODULE_LOG

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  if (file) fs.appendFileSync(file, `${resolved.url}\n`)
  return resolved
}
