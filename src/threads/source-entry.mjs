// How a thread starts when the service runs from its TypeScript sources (tsx, vitest; the build in dist/ starts its
// compiled entries directly, see pool.ts threadEntry). Threads do not inherit the main thread's loader. When dist/ is a
// build of exactly these sources (the digest scripts/build.mjs records), the thread runs the compiled module: the same
// per-file transform, loaded without tsx's hooks, which cost a new thread about 1.2 s of CPU (once per service the
// suite starts). Otherwise it registers tsx and loads the TypeScript module. Plain JavaScript, so that Node can start
// it under tsx, vitest or plain node alike.

import fs from 'node:fs'

const ROOT = new URL('../../', import.meta.url)

/**
 * The module a thread loads for `source` (the URL of a .ts file of the project): its compiled counterpart in dist/ when
 * dist/ is a current build, else `source` itself.
 */
export async function threadModule(source) {
  const compiled = new URL(`dist/${source.href.slice(ROOT.href.length).replace(/\.ts$/, '.js')}`, ROOT)
  return (await sourcesBuilt()) && fs.existsSync(compiled) ? compiled : source
}

/** Whether dist/ is a build of exactly these sources (the digest scripts/build.mjs records); false without the script. */
export async function sourcesBuilt() {
  try {
    const build = await import(new URL('scripts/build.mjs', ROOT).href)
    return build.buildIsCurrent()
  } catch {
    return false
  }
}

/** Runs the thread module at `source`: the compiled one when current, else the TypeScript through tsx. */
export async function startThread(source) {
  const module = await threadModule(source)
  if (module !== source) {
    await import(module.href)
    return
  }
  const { register } = await import('tsx/esm/api')
  register()
  await import(source.href)
}
