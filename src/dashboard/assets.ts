// The dashboard's browser code is TypeScript under dashboard/, bundled by esbuild in process the first time it is
// asked for (a fraction of a second), so `npm start` serves it with no separate build step and no files written.
import fs from 'node:fs/promises'
import path from 'node:path'
import { build } from 'esbuild'
import { PACKAGE_ROOT } from '../paths.js'

export const DASHBOARD_DIR = path.join(PACKAGE_ROOT, 'dashboard')

export interface DashboardAssets {
  html: string
  js: string
  css: string
}

async function bundle(entry: string, loader: 'ts' | 'css'): Promise<string> {
  const out = await build({
    entryPoints: [path.join(DASHBOARD_DIR, entry)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    outdir: 'out',
    loader: loader === 'css' ? { '.css': 'css' } : undefined,
  })
  return out.outputFiles[0]!.text
}

let built: Promise<DashboardAssets> | undefined

/** The page, script and stylesheet; built once per process (a failed build is retried on the next request). */
export function dashboardAssets(): Promise<DashboardAssets> {
  if (!built) {
    built = Promise.all([
      fs.readFile(path.join(DASHBOARD_DIR, 'index.html'), 'utf8'),
      bundle('src/main.ts', 'ts'),
      bundle('app.css', 'css'),
    ]).then(([html, js, css]) => ({ html, js, css }))
    built.catch(() => (built = undefined))
  }
  return built
}
