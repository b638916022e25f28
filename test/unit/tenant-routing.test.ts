// One statement per tenant (src/db/tenant-routing.ts): the grouping and the order every process locks in.
import { describe, expect, it } from 'vitest'
import { byTenantOf, compareTenants, perTenant } from '../../src/db/tenant-routing.js'

const rows = [
  { tenant: 'b', id: 1 },
  { tenant: 'a', id: 2 },
  { tenant: 'b', id: 3 },
  { tenant: 'B', id: 4 },
  { tenant: 'a', id: 5 },
]

describe('tenant routing', () => {
  it('groups rows by tenant, tenants in one fixed order and rows in their order within each', () => {
    expect(byTenantOf(rows, (r) => r.tenant)).toEqual([
      ['B', [{ tenant: 'B', id: 4 }]],
      [
        'a',
        [
          { tenant: 'a', id: 2 },
          { tenant: 'a', id: 5 },
        ],
      ],
      [
        'b',
        [
          { tenant: 'b', id: 1 },
          { tenant: 'b', id: 3 },
        ],
      ],
    ])
    expect(byTenantOf([], (r: { tenant: string }) => r.tenant)).toEqual([])
    expect(['b', 'a', 'é', 'B'].sort(compareTenants)).toEqual(['B', 'a', 'b', 'é'])
  })

  it('runs one tenant at a time, never two at once, and returns every result in tenant order', async () => {
    const calls: string[] = []
    let running = 0
    const out = await perTenant(
      rows,
      (r) => r.tenant,
      async (tenantId, group) => {
        running++
        expect(running).toBe(1)
        calls.push(tenantId)
        await new Promise((resolve) => setImmediate(resolve))
        running--
        return group.map((r) => r.id)
      },
    )
    expect(calls).toEqual(['B', 'a', 'b'])
    expect(out).toEqual([4, 2, 5, 1, 3])
    expect(
      await perTenant(
        rows,
        (r) => r.tenant,
        async () => undefined,
      ),
    ).toEqual([])
  })

  it('stops at the first tenant whose statement fails', async () => {
    const calls: string[] = []
    const failing = perTenant(
      rows,
      (r) => r.tenant,
      async (tenantId) => {
        calls.push(tenantId)
        if (tenantId === 'a') throw new Error('boom')
        return []
      },
    )
    await expect(failing).rejects.toThrow('boom')
    expect(calls).toEqual(['B', 'a'])
  })
})
