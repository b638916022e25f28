import type { Server } from 'node:http'
import type { WebSocketServer } from 'ws'

const routes = new WeakMap<Server, Map<string, WebSocketServer>>()

/**
 * Several WebSocket endpoints on one HTTP server: `ws` servers created with `server:` answer 400 to every path but
 * their own, so they are created with `noServer` and upgrades are routed here by path. Unknown paths get 404.
 */
export function routeUpgrade(server: Server, path: string, wss: WebSocketServer) {
  let byPath = routes.get(server)
  if (!byPath) {
    const table = new Map<string, WebSocketServer>()
    routes.set(server, (byPath = table))
    server.on('upgrade', (req, socket, head) => {
      const target = table.get((req.url ?? '/').split('?')[0]!.replace(/\/+$/, '') || '/')
      if (!target) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
        return
      }
      target.handleUpgrade(req, socket, head, (ws) => target.emit('connection', ws, req))
    })
  }
  byPath.set(path, wss)
}
