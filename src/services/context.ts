/** Who is asking: every service method takes it first. */
export interface RequestContext {
  tenantId: string
  appId: string
  requestId: string
}
