// The Python client (clients/python) from a clean install, against the real service: its sdist and wheel are built
// offline (its own PEP 517 backend needs no packages), pip builds a wheel again from the sdist (so the sdist is
// complete, and the build reproducible), the wheel is installed in a fresh venv with no index, and the client's pytest
// suite runs from that venv against two services started here: one for the calls, one with a small rate limit for the
// 429 retries. The install commands of its README and of the clients page also run as written, each in a fresh venv,
// in a fresh copy of the client's files.
import { execFile, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type TestService } from '../support/harness.js'
import { ROOT } from '../support/cli.js'
import { docExample } from '../support/readme.js'

const run = promisify(execFile)
const CLIENT = path.join(ROOT, 'clients/python')
const PYTHON = process.env.PROFILER_PYTHON || 'python3'

// Building needs tomllib (3.11+) or tomli; the venv needs venv and ensurepip (pip inside it); the suite needs pytest,
// which the venv sees through --system-site-packages.
const probe = spawnSync(
  PYTHON,
  [
    '-c',
    'import sys, venv, ensurepip, pytest, importlib.util as u; ' +
      'assert u.find_spec("tomllib") or u.find_spec("tomli"); print(sys.version.split()[0])',
  ],
  { encoding: 'utf8' },
)
const python = probe.status === 0 ? probe.stdout.trim() : undefined
// .ci/run sets PROFILER_REQUIRE_PYTHON=1, so there a missing Python fails instead of skipping.
if (!python && process.env.PROFILER_REQUIRE_PYTHON) {
  const why = (probe.stderr || String(probe.error ?? '')).trim()
  throw new Error(`No usable ${PYTHON} (needs venv, ensurepip, pytest and Python 3.11+): ${why}`)
}
if (!python)
  console.warn(`python client test skipped: no usable ${PYTHON} with venv, ensurepip and pytest (set PROFILER_PYTHON)`)

// The client talks REST, which is the same whatever database serves it: the suite runs once, in the embedded pass.
const serverPass = !!process.env.DATABASE_URL

/** Runs a command without blocking this process's event loop (the services under test run in it). */
async function sh(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
) {
  try {
    return await run(cmd, args, {
      cwd: opts.cwd ?? CLIENT,
      env: {
        ...process.env,
        PYTHONDONTWRITEBYTECODE: '1',
        PIP_DISABLE_PIP_VERSION_CHECK: '1',
        PIP_NO_INPUT: '1',
        ...opts.env,
      },
      timeout: opts.timeoutMs ?? 120_000,
      maxBuffer: 32 * 1024 * 1024,
    })
  } catch (e: any) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${e.code ?? e.signal}):\n${e.stdout ?? ''}\n${e.stderr ?? ''}`)
  }
}

describe.skipIf(!python || serverPass)(
  'Python client: built, installed from its wheel in a fresh venv, tested with pytest against the service',
  () => {
    let svc: TestService
    let limited: TestService
    let tmp: string
    let venvPython: string
    let wheel: string
    let sdist: string

    beforeAll(async () => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-python-'))
      // The tests poll; the main service's budget is raised so no call of theirs is slowed by a 429. The limited one's
      // is small: the retry tests spend it.
      ;[svc, limited] = await Promise.all([
        startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '6000' } }),
        startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '30' } }),
      ])

      // sdist and wheel through the PEP 517 hooks, then the wheel again by pip from the sdist, with no index.
      const dist = path.join(tmp, 'dist')
      await sh(PYTHON, ['tools/build_dists.py', dist])
      sdist = path.join(dist, 'profiler_client-0.1.0.tar.gz')
      const direct = path.join(dist, 'profiler_client-0.1.0-py3-none-any.whl')
      // The install commands of the client's README and the clients page name the file the build makes.
      expect(fs.existsSync(direct)).toBe(true)
      for (const doc of ['clients/python/README.md', 'docs/getting-started/clients.md']) {
        expect(fs.readFileSync(path.join(ROOT, doc), 'utf8'), doc).toContain(`dist/${path.basename(direct)}`)
      }
      const fromSdist = path.join(tmp, 'from-sdist')
      await sh(PYTHON, ['-m', 'pip', 'wheel', '--no-deps', '--no-index', '--no-cache-dir', '-w', fromSdist, sdist])
      wheel = path.join(fromSdist, 'profiler_client-0.1.0-py3-none-any.whl')
      expect(
        fs.readFileSync(wheel).equals(fs.readFileSync(direct)),
        'the wheel pip built from the sdist differs from the one built from the tree',
      ).toBe(true)

      const venv = path.join(tmp, 'venv')
      await sh(PYTHON, ['-m', 'venv', '--system-site-packages', venv])
      venvPython = path.join(venv, 'bin', 'python')
      await sh(venvPython, ['-m', 'pip', 'install', '--no-index', '--no-deps', '--no-cache-dir', wheel])
    }, 300_000)

    afterAll(async () => {
      await Promise.all([svc?.close(), limited?.close()])
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
    })

    it('the sdist holds the sources, tests and backend; the venv runs the installed wheel, not the tree', async () => {
      const { stdout: names } = await sh('tar', ['tzf', sdist])
      for (const f of [
        'PKG-INFO',
        'pyproject.toml',
        'README.md',
        'build_backend/profiler_build.py',
        'src/profiler_client/__init__.py',
        'src/profiler_client/py.typed',
        'tests/conftest.py',
      ]) {
        expect(names.split('\n')).toContain(`profiler_client-0.1.0/${f}`)
      }
      const { stdout } = await sh(
        venvPython,
        [
          '-c',
          'import profiler_client, importlib.metadata as m; print(profiler_client.__file__); ' +
            'print(m.version("profiler-client")); print(m.metadata("profiler-client")["Requires-Python"])',
        ],
        { cwd: tmp },
      )
      const [file, version, requires] = stdout.trim().split('\n')
      expect(file.startsWith(path.join(tmp, 'venv'))).toBe(true)
      expect(version).toBe('0.1.0')
      expect(requires).toBe('>=3.9')
    })

    it("installs as its README and the clients page say, from a fresh copy of the client's files", async () => {
      // The files git tracks under clients/python, as a clone has them: no dist/, no caches.
      const clone = path.join(tmp, 'clone')
      const { stdout: tracked } = await sh('git', ['ls-files', '-z', 'clients/python'], { cwd: ROOT })
      for (const file of tracked.split('\0').filter(Boolean)) {
        fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true })
        fs.copyFileSync(path.join(ROOT, file), path.join(clone, file))
      }
      // Each in the user's own environment: a fresh venv whose python3 and pip come first on the PATH.
      const installAsWritten = async (doc: string, example: string) => {
        const venv = fs.mkdtempSync(path.join(tmp, 'user-venv-'))
        await sh(PYTHON, ['-m', 'venv', venv])
        const env = { PATH: `${path.join(venv, 'bin')}${path.delimiter}${process.env.PATH}`, VIRTUAL_ENV: venv }
        await sh('bash', ['-euo', 'pipefail', '-c', docExample(doc, example)], { cwd: clone, env })
        const { stdout } = await sh(
          path.join(venv, 'bin', 'python'),
          [
            '-c',
            'import profiler_client, importlib.metadata as m; ' +
              'print(profiler_client.__file__, m.version("profiler-client"))',
          ],
          { cwd: tmp },
        )
        const [file, version] = stdout.trim().split(' ')
        expect(file!.startsWith(venv), `${doc}: ${stdout}`).toBe(true)
        expect(version).toBe('0.1.0')
      }
      // The README builds the wheel in clients/python and installs it; the clients page installs that wheel from the
      // repository's root.
      await installAsWritten('clients/python/README.md', 'install')
      await installAsWritten('docs/getting-started/clients.md', 'python-install')
    }, 300_000)

    it('passes its pytest suite from the venv against the service (nothing skipped)', async () => {
      const env = {
        PROFILER_URL: svc.url,
        PROFILER_API_KEY: svc.key,
        PROFILER_LIMITED_URL: limited.url,
        PROFILER_LIMITED_API_KEY: limited.key,
        PROFILER_CLIENT_INSTALLED_IN: path.join(tmp, 'venv'),
      }
      let out: string
      try {
        // Run from the temporary directory: nothing (a plugin's files, `python -m`'s cwd on sys.path) touches the tree.
        const r = await run(
          venvPython,
          ['-m', 'pytest', '-q', '-rs', '-p', 'no:cacheprovider', path.join(CLIENT, 'tests')],
          {
            cwd: tmp,
            env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env },
            timeout: 540_000,
            maxBuffer: 32 * 1024 * 1024,
          },
        )
        out = r.stdout + r.stderr
      } catch (e: any) {
        throw new Error(`pytest failed (exit ${e.code ?? e.signal}):\n${e.stdout ?? ''}\n${e.stderr ?? ''}`)
      }
      const summary = out.trim().split('\n').pop() ?? ''
      expect(summary, out).toMatch(/^=* ?\d+ passed/)
      expect(summary, out).not.toMatch(/skipped|failed|error/)
      console.log(`python client (Python ${python}): pytest says ${summary.replace(/=/g, '').trim()}`)
    }, 600_000)
  },
)
