// The deployment files a team starts from: docker-compose.yml (validated by Docker Compose itself, which needs no
// engine for `config`), the Kubernetes example (deploy/k8s/profiler.yaml) and the proxy's configuration
// (deploy/nginx.conf, checked by nginx and run in front of the service). Checked against the real service: the
// probes' paths answer on a running API, the commands are the CLI's, the grace periods cover the shutdown timeout,
// every image is pinned by version, the API trusts its proxy, and behind it each client keeps its own address.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { loadConfig } from '../../src/config.js'
import { startProfiler } from '../../src/app.js'
import { randomToken } from '../../src/domain/keys.js'
import { startService, testEnv, type TestService } from '../support/harness.js'
import { profilerArgs, ROOT } from '../support/cli.js'
import { waitFor } from '../support/wait.js'

const PLUGIN = '/usr/libexec/docker/cli-plugins/docker-compose'

/** `docker compose` (or Debian's plugin binary run on its own), or null when neither is installed. */
function composeCommand(): string[] | null {
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0) return ['docker', 'compose']
  if (fs.existsSync(PLUGIN) && spawnSync(PLUGIN, ['version'], { stdio: 'ignore' }).status === 0) return [PLUGIN]
  return null
}
const compose = composeCommand()
// .ci/run installs Docker Compose (scripts/install-compose.sh) and sets PROFILER_REQUIRE_COMPOSE=1: there a missing
// Compose fails instead of skipping.
if (!compose && process.env.PROFILER_REQUIRE_COMPOSE)
  throw new Error('Docker Compose v2 is not installed (scripts/install-compose.sh installs it)')

/** nginx as scripts/install-nginx.sh unpacks it, or one on the PATH; null when there is none. */
function nginxBinary(): string | null {
  for (const bin of ['/var/cache/profiler-nginx/usr/sbin/nginx', 'nginx']) {
    if (spawnSync(bin, ['-v'], { stdio: 'ignore' }).status === 0) return bin
  }
  return null
}
const nginx = nginxBinary()
if (!nginx && process.env.PROFILER_REQUIRE_NGINX) {
  throw new Error('nginx is not installed (scripts/install-nginx.sh unpacks it)')
}
const NGINX_CONF = path.join(ROOT, 'deploy/nginx.conf')

/**
 * A main configuration around deploy/nginx.conf (which docker-compose.yml mounts into conf.d, inside `http`), with
 * every path in `dir`. `conf` is the shipped file, or a copy of it pointed at a test's service.
 */
function nginxMain(dir: string, conf: string): string {
  const main = path.join(dir, 'nginx.conf')
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`).join(' ')
  const block = `http { ${temp} access_log off; include ${conf}; }`
  fs.writeFileSync(main, `pid ${dir}/nginx.pid;\nerror_log stderr;\nevents {}\n${block}\n`)
  return main
}

/** The value of each occurrence of an nginx directive in `conf`. */
const directive = (conf: string, name: string) =>
  [...conf.matchAll(new RegExp(`^\\s*${name}\\s+([^;]+);`, 'gm'))].map((m) => m[1]!.trim())
/** An nginx time in whole seconds ("10s" or "10"); NaN for anything else. */
const seconds = (v: string | undefined) => (v !== undefined && /^\d+s?$/.test(v) ? parseInt(v, 10) : NaN)

/** A pinned image: a registry path with an explicit version tag (digits in it), never `latest` or a bare major. */
const pinned = (image: string) => /^[a-z0-9./_-]+:(?!latest$)[A-Za-z0-9._-]*\d+\.\d+[A-Za-z0-9._-]*$/.test(image)
const defaultShutdownMs = loadConfig({}).shutdownTimeoutMs

/** Each CLI command a manifest runs must be one the shipped CLI knows. */
function knownCommand(cmd: string[]) {
  const i = cmd.indexOf('dist/src/main.js')
  expect(i, `runs the compiled CLI: ${cmd.join(' ')}`).toBeGreaterThanOrEqual(0)
  const sub = cmd.slice(i + 1)
  expect(sub.length).toBeGreaterThan(0)
  const r = spawnSync(process.execPath, profilerArgs(...sub, '--help'), { cwd: ROOT, encoding: 'utf8' })
  expect(r.status, `profiler ${sub.join(' ')} --help: ${r.stderr}`).toBe(0)
}

describe('deployment manifests', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService()
  })
  afterAll(async () => svc?.close())

  describe.skipIf(!compose)('docker-compose.yml', () => {
    let config: any
    beforeAll(() => {
      const [cmd, ...args] = compose!
      config = JSON.parse(
        execFileSync(cmd!, [...args, '-f', path.join(ROOT, 'docker-compose.yml'), 'config', '--format', 'json'], {
          cwd: ROOT,
          encoding: 'utf8',
        }),
      )
    })

    it('is valid Compose and pins every image by version', () => {
      const images = Object.entries<any>(config.services).map(([name, s]) => [name, s.image as string])
      for (const [name, image] of images) expect(pinned(image ?? ''), `service ${name}: image ${image}`).toBe(true)
      const base = fs
        .readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')
        .match(/^FROM\s+(\S+)/gm)!
        .map((l) => l.split(/\s+/)[1]!)
      for (const image of base) expect(pinned(image), `Dockerfile FROM ${image}`).toBe(true)
    })

    it('runs API and worker replicas after one migration, with grace for the shutdown', () => {
      const { api, worker, migrate, proxy } = config.services
      expect(api.deploy.replicas).toBeGreaterThanOrEqual(2)
      expect(worker.deploy.replicas).toBeGreaterThanOrEqual(2)
      for (const s of [api, worker]) {
        expect(s.depends_on.migrate.condition).toBe('service_completed_successfully')
        expect(s.environment.DATABASE_URL).toMatch(/^postgres:\/\/.+@db:5432\//)
        // "30s" as Compose prints it
        expect(parseInt(s.stop_grace_period, 10) * 1000).toBeGreaterThan(defaultShutdownMs)
      }
      knownCommand(api.command)
      knownCommand(worker.command)
      knownCommand([...migrate.entrypoint, ...migrate.command])
      expect(api.command.at(-1)).toBe('serve')
      expect(worker.command.at(-1)).toBe('worker')
      // The proxy's configuration file is in the repository and passes WebSocket upgrades through.
      const mount = proxy.volumes.find((v: any) => v.target === '/etc/nginx/conf.d/default.conf')
      const conf = fs.readFileSync(mount.source, 'utf8')
      expect(conf).toMatch(/proxy_set_header Upgrade \$http_upgrade/)
      expect(conf).toMatch(/http:\/\/api:8080/)
    })

    it('the API trusts only its proxy: a trust list it accepts, and no published port of its own', () => {
      const { api } = config.services
      const trust = api.environment.PROFILER_TRUST_PROXY
      expect(trust).toBeTruthy()
      expect(loadConfig({ PROFILER_TRUST_PROXY: trust }).http.trustProxy.length).toBeGreaterThan(0)
      expect(api.ports ?? []).toEqual([])
    })
  })

  describe('deploy/k8s/profiler.yaml', () => {
    const docs = parseAllDocuments(fs.readFileSync(path.join(ROOT, 'deploy/k8s/profiler.yaml'), 'utf8')).map((d) => {
      expect(d.errors).toEqual([])
      return d.toJS()
    })
    const byKind = (kind: string) => docs.filter((d) => d.kind === kind)
    const deployment = (component: string) =>
      byKind('Deployment').find((d) => d.metadata.labels['app.kubernetes.io/component'] === component)
    const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
      Object.entries(selector).every(([k, v]) => labels[k] === v)

    it('has an API and a worker Deployment, a Service, a migration Job and disruption budgets that select them', () => {
      const api = deployment('api')
      const worker = deployment('worker')
      expect(api && worker).toBeTruthy()
      for (const d of [api, worker]) {
        expect(d.spec.replicas).toBeGreaterThanOrEqual(2)
        expect(matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels)).toBe(true)
        const pdb = byKind('PodDisruptionBudget').find((p) =>
          matches(p.spec.selector.matchLabels, d.spec.template.metadata.labels),
        )
        expect(pdb, `a PodDisruptionBudget for ${d.metadata.name}`).toBeTruthy()
        if (pdb.spec.minAvailable !== undefined) expect(pdb.spec.minAvailable).toBeLessThan(d.spec.replicas)
        const [c] = d.spec.template.spec.containers
        expect(pinned(c.image), c.image).toBe(true)
        knownCommand(c.command)
        // Graceful shutdown: the grace period covers the service's shutdown timeout and the preStop pause.
        const shutdownMs = Number(byKind('ConfigMap')[0].data.PROFILER_SHUTDOWN_TIMEOUT_MS ?? defaultShutdownMs)
        const preStopMs = Number(
          /setTimeout\([^,]+,\s*(\d+)\)/.exec(JSON.stringify(c.lifecycle?.preStop ?? ''))?.[1] ?? 0,
        )
        expect(d.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(shutdownMs + preStopMs)
      }
      const service = byKind('Service')[0]
      expect(matches(service.spec.selector, api.spec.template.metadata.labels)).toBe(true)
      const job = byKind('Job')[0]
      expect(job.spec.template.spec.containers[0].command.at(-1)).toBe('migrate')
      knownCommand(job.spec.template.spec.containers[0].command)
    })

    it('trusts the proxies of the cluster (a trust list the service accepts) behind a ClusterIP Service', () => {
      const trust = byKind('ConfigMap')[0].data.PROFILER_TRUST_PROXY
      expect(loadConfig({ PROFILER_TRUST_PROXY: trust }).http.trustProxy.length).toBeGreaterThan(0)
      for (const s of byKind('Service')) expect(s.spec.type ?? 'ClusterIP').toBe('ClusterIP')
    })

    it('probes paths the running API answers: liveness on /healthz, readiness on /readyz', async () => {
      const [c] = deployment('api').spec.template.spec.containers
      expect(c.livenessProbe.httpGet.path).toBe('/healthz')
      expect(c.readinessProbe.httpGet.path).toBe('/readyz')
      for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
        expect(probe.httpGet.port).toBe(c.ports[0].name)
        const r = await fetch(`${svc.url}${probe.httpGet.path}`)
        expect(r.status, probe.httpGet.path).toBe(200)
      }
      expect(c.env).toContainEqual({ name: 'HOST', value: '0.0.0.0' })
      expect(c.env.find((e: any) => e.name === 'PORT').value).toBe(String(c.ports[0].containerPort))
    })

    it("the worker's liveness probe and the scrape annotations reach a worker's metrics port", async () => {
      const cm = byKind('ConfigMap')[0].data
      const worker = await startProfiler(
        loadConfig({ ...testEnv(svc.db), PROFILER_METRICS_PORT: '0', PROFILER_METRICS_HOST: '127.0.0.1' }),
        { role: 'worker' },
      )
      try {
        for (const d of [deployment('api'), deployment('worker')]) {
          const [c] = d.spec.template.spec.containers
          const port = c.ports.find((p: any) => p.name === 'metrics')
          expect(String(port.containerPort)).toBe(cm.PROFILER_METRICS_PORT)
          expect(d.spec.template.metadata.annotations['prometheus.io/port']).toBe(cm.PROFILER_METRICS_PORT)
          expect(d.spec.template.metadata.annotations['prometheus.io/path']).toBe('/metrics')
        }
        const probe = deployment('worker').spec.template.spec.containers[0].livenessProbe.httpGet
        expect(probe.port).toBe('metrics')
        const r = await fetch(new URL(probe.path, worker.metricsUrl!))
        expect(r.status).toBe(200)
        expect(await r.text()).toMatch(/^profiler_info\{role="worker"/m)
      } finally {
        await worker.close()
      }
    })
  })
})

describe('deploy/nginx.conf', () => {
  const conf = fs.readFileSync(NGINX_CONF, 'utf8')

  it('passes the client on, and bounds idle and slow clients and the connections of each', () => {
    const forwarded = ['X-Forwarded-For $proxy_add_x_forwarded_for', 'X-Real-IP $remote_addr']
    expect(directive(conf, 'proxy_set_header')).toEqual(expect.arrayContaining(forwarded))
    const zone = /^\$binary_remote_addr zone=per_client:\d+m$/
    expect(directive(conf, 'limit_conn_zone')).toEqual([expect.stringMatching(zone)])
    expect(directive(conf, 'limit_conn')).toEqual([expect.stringMatching(/^per_client \d+$/)])
    expect(directive(conf, 'limit_conn_status')).toEqual(['429'])
    // Seconds, not nginx's default minute: an idle or trickling client holds a connection only briefly.
    for (const name of ['client_header_timeout', 'client_body_timeout', 'keepalive_timeout']) {
      expect(seconds(directive(conf, name)[0]), name).toBeLessThanOrEqual(10)
    }
    expect(seconds(directive(conf, 'send_timeout')[0])).toBeLessThanOrEqual(60)
    // The proxy closes an idle client connection no later than the API closes an idle one of its own.
    const keepAliveMs = seconds(directive(conf, 'keepalive_timeout')[0]) * 1000
    expect(keepAliveMs).toBeLessThanOrEqual(loadConfig({}).http.keepAliveTimeoutMs)
  })

  it.skipIf(!nginx)('is a valid nginx configuration (nginx -t)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-nginx-'))
    try {
      const args = ['-e', 'stderr', '-p', dir, '-c', nginxMain(dir, NGINX_CONF), '-t']
      const r = spawnSync(nginx!, args, { encoding: 'utf8' })
      expect(r.status, r.stderr).toBe(0)
      expect(r.stderr).toMatch(/test is successful/)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  // The shipped file, pointed at a running service that trusts it (PROFILER_TRUST_PROXY=127.0.0.1, where nginx
  // connects from); clients connect to nginx from their own loopback addresses.
  describe.skipIf(!nginx)('in front of the service', () => {
    let svc: TestService
    let proxy: ChildProcess
    let dir: string
    let port: number
    const FAILURES = 5
    beforeAll(async () => {
      const env = { PROFILER_TRUST_PROXY: '127.0.0.1', PROFILER_AUTH_FAILURES_PER_MINUTE: String(FAILURES) }
      svc = await startService({ env })
      port = await freePort()
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-nginx-'))
      const local = path.join(dir, 'default.conf')
      const pointed = conf.replace('listen 8080;', `listen 127.0.0.1:${port};`).replace('http://api:8080', svc.url)
      fs.writeFileSync(local, pointed)
      const args = ['-e', 'stderr', '-p', dir, '-c', nginxMain(dir, local), '-g', 'daemon off;']
      proxy = spawn(nginx!, args, { stdio: 'ignore' })
      await waitFor('nginx to answer', async () => (await via('/healthz', '127.0.0.1')).status === 200)
    })
    afterAll(async () => {
      proxy?.kill()
      if (proxy && proxy.exitCode === null) await new Promise((r) => proxy.once('exit', r))
      if (dir) fs.rmSync(dir, { recursive: true, force: true })
      await svc?.close()
    })

    const via = (p: string, from: string, headers: Record<string, string> = {}) => request(port, p, from, headers)
    const bearer = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra })
    const madeUp = () => `pk_${randomToken(12)}_${randomToken(32)}`

    it("one client's failed keys refuse it, not another's valid key, whatever it claims in the header", async () => {
      const valid = (await svc.profiler.services.tenants.createApp('default', 'behind-nginx')).api_key
      const attacker: number[] = []
      for (let i = 0; i < 3 * FAILURES; i++) {
        const claimingToBeTheVictim = bearer(madeUp(), { 'x-forwarded-for': '127.0.0.3' })
        attacker.push((await via('/v1/search', '127.0.0.2', claimingToBeTheVictim)).status)
      }
      expect(attacker.slice(0, FAILURES).every((s) => s === 401)).toBe(true)
      expect(attacker.slice(-FAILURES).every((s) => s === 429)).toBe(true)
      expect((await via('/v1/search', '127.0.0.3', bearer(valid))).status).toBe(200)
      expect((await via('/v1/search', '127.0.0.3', bearer(madeUp()))).status).toBe(401)
      expect((await via('/v1/search', '127.0.0.2', bearer(madeUp()))).status).toBe(429)
    })

    it('answers 429 to a client over its connections in progress, and serves others', async () => {
      const limit = Number(/per_client (\d+)/.exec(directive(conf, 'limit_conn')[0]!)![1])
      // Requests in progress: heads sent, bodies not, so nginx holds each while it waits for the body.
      const held = await Promise.all(Array.from({ length: limit }, () => holdRequest(port, '127.0.0.4')))
      try {
        const refused = async () => (await via('/healthz', '127.0.0.4')).status === 429
        await waitFor('the held requests to be counted', refused, { timeoutMs: 5000 })
        expect((await via('/healthz', '127.0.0.5')).status).toBe(200)
      } finally {
        for (const s of held) s.destroy()
      }
      await waitFor('the client to be served again', async () => (await via('/healthz', '127.0.0.4')).status === 200)
    })
  })
})

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

function request(port: number, p: string, from: string, headers: Record<string, string>): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: p, localAddress: from, headers, agent: false }, (res) => {
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode! }))
      })
      .on('error', reject)
  })
}

/** A POST whose head is sent and whose body never comes, from `from`. */
function holdRequest(port: number, from: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port, localAddress: from }, () => {
      s.write('POST /v1/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n')
      s.write('Content-Length: 100\r\n\r\n')
      resolve(s)
    })
    s.on('error', () => undefined)
    s.once('error', reject)
  })
}
