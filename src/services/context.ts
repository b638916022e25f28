import type { Transaction } from '../db/unit-of-work.js'

/** Who is asking: every service method takes it first. */
export interface RequestContext {
  tenantId: string
  appId: string
  requestId: string
  /** The transaction a use case runs in when another one called it (`UnitOfWork.run`); none at the transport. */
  tx?: Transaction
  /** Aborted when the caller goes away (its connection closed, its operation cancelled): long work stops with it. */
  signal?: AbortSignal
}
