// How a thread starts when the service runs from its TypeScript sources (src/threads/source-entry.mjs): the compiled
// module of a current build, or the TypeScript through tsx when there is none.
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { sourcesBuilt, threadModule } from '../../src/threads/source-entry.mjs'

const src = (p: string) => new URL(`../../${p}`, import.meta.url)

describe('a thread started from the sources', () => {
  it('runs the compiled module when dist/ is a current build of the sources (the suite builds it first)', async () => {
    expect(await sourcesBuilt()).toBe(true)
    for (const name of ['src/ai/local/extract-thread', 'src/services/cpu/cpu-thread']) {
      expect((await threadModule(src(`${name}.ts`))).href).toBe(src(`dist/${name}.js`).href)
    }
  })

  it('runs the TypeScript through tsx when the build has no such module', async () => {
    const source = src('test/support/threads/probe-thread.ts')
    expect((await threadModule(source)).href).toBe(source.href)
    const worker = new Worker(src('test/support/threads/probe-thread.mjs'))
    try {
      const [message] = await once(worker, 'message')
      expect(message).toEqual({ url: source.href, value: 42 })
    } finally {
      await worker.terminate()
    }
  })
})
