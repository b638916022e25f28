import Router from 'find-my-way'
import type { FastifyInstance } from 'fastify'

/**
 * Every route the server registers, collected as Fastify registers it (its `onRoute` hook): the one table, so a 405
 * and its `Allow` header can never disagree with the routes. Paths are matched by find-my-way, the router Fastify
 * itself uses, with the server's options.
 */
export class RouteTable {
  private readonly router: Router.Instance<Router.HTTPVersion.V1>
  private readonly methods = new Set<string>()

  constructor(opts: { ignoreTrailingSlash: boolean; maxParamLength: number }) {
    this.router = Router({ ...opts })
  }

  /** Collects every route registered on `app` (and its plugins) from now on. */
  watch(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      for (const m of Array.isArray(route.method) ? route.method : [route.method]) this.add(m, route.url)
    })
  }

  add(method: string, url: string): void {
    const upper = method.toUpperCase()
    if (this.router.findRoute(upper as Router.HTTPMethod, url)) return
    this.router.on(upper as Router.HTTPMethod, url, () => undefined)
    this.methods.add(upper)
  }

  /** The methods a path has routes for, in a stable order; empty for a path the server does not know. */
  allowed(path: string): string[] {
    return [...this.methods].filter((m) => this.router.find(m as Router.HTTPMethod, path) !== null).sort(byUsualOrder)
  }
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
const rank = (m: string) => (ORDER.includes(m) ? ORDER.indexOf(m) : ORDER.length)
const byUsualOrder = (a: string, b: string) => rank(a) - rank(b) || a.localeCompare(b)
