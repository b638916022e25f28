// The deployment files a team starts from: docker-compose.yml (validated by Docker Compose itself, which needs no
// engine for `config`) and the Kubernetes example (deploy/k8s/profiler.yaml). Checked against the real service: the
// probes' paths answer on a running API, the commands are the CLI's, the grace periods cover the shutdown timeout,
// and every image is pinned by version.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { loadConfig } from '../../src/config.js'
import { startProfiler } from '../../src/app.js'
import { startService, testEnv, type TestService } from '../support/harness.js'
import { profilerArgs, ROOT } from '../support/cli.js'

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
        expect(parseInt(s.stop_grace_period) * 1000).toBeGreaterThan(defaultShutdownMs)
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
