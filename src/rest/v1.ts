import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.js'
import type { Services } from '../services/index.js'
import { openApiDocument } from './openapi.js'
import { registerRoutes } from './route.js'
import { v1Routes } from './v1.routes.js'

/** /v1: the routes as declared, and their OpenAPI document (built on its first request). */
export async function registerV1Routes(v1: FastifyInstance, services: Services, config: Config) {
  const limits = { maxPageSize: config.limits.maxPageSize }
  let document: object | undefined
  const documented = () => (document ??= openApiDocument(limits))
  registerRoutes(v1, v1Routes(limits), { services, config, openApiDocument: documented })
}
