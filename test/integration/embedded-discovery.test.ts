// How a process (the CLI) finds the embedded database that another one serves from its data dir (embedded.json): found
// even when this thread was busy meanwhile, and given up only when its process is gone or nothing listens on its port.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findRunningEmbedded, startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded-postgres.js'
import { seedDataDir } from '../support/cluster-template.js'
import { SERVER_URL } from '../support/harness.js'

/** Keeps this thread busy, as a CLI command is while it loads its modules. */
const busyFor = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end) {
    /* busy */
  }
}

/** findRunningEmbedded, with the thread busy past the probe's second once the probe has connected (its next tick). */
const findWhileBusy = (dataDir: string) => {
  const finding = findRunningEmbedded(dataDir)
  process.nextTick(() => busyFor(1500))
  return finding
}

/** A loopback port where nothing listens. */
const closedPort = async () => {
  const server = net.createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

const infoFile = (dataDir: string) => path.join(dataDir, 'embedded.json')

// The embedded pass only: it has the run's initialised cluster (initdb would take as long as the rest of the file).
describe.skipIf(SERVER_URL)('finding the embedded database another process serves', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-discovery-'))
  let embedded: EmbeddedPostgres

  beforeAll(async () => {
    seedDataDir(dataDir)
    embedded = await startEmbeddedPostgres(dataDir)
  })
  afterAll(async () => {
    await embedded?.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('finds it when this thread was busy until after the probe was due, and keeps its address', async () => {
    const found = await findWhileBusy(dataDir)
    expect(found?.url).toBe(embedded.url)
    expect(fs.existsSync(infoFile(dataDir))).toBe(true)
  })

  it('gives up an address where nothing listens (busy thread or not) or whose process is gone', async () => {
    const stale = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-discovery-stale-'))
    try {
      fs.writeFileSync(infoFile(stale), JSON.stringify({ pid: process.pid, port: await closedPort() }))
      expect(await findWhileBusy(stale)).toBeNull()
      expect(fs.existsSync(infoFile(stale))).toBe(false)

      const exited = spawnSync(process.execPath, ['-e', '']).pid
      fs.writeFileSync(infoFile(stale), JSON.stringify({ pid: exited, port: Number(new URL(embedded.url).port) }))
      expect(await findRunningEmbedded(stale)).toBeNull()
      expect(fs.existsSync(infoFile(stale))).toBe(false)
    } finally {
      fs.rmSync(stale, { recursive: true, force: true })
    }
  })
})
