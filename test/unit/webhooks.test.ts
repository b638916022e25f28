import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { verifyProfilerSignature } from '../../examples/webhook-receiver.mjs'
import { signatureHeader, webhookRetryDelayMs, webhookScheduleMs } from '../../src/domain/webhooks.js'
import { SecretBox } from '../../src/services/webhooks/secrets.js'
import { addressClass, UrlPolicy } from '../../src/services/webhooks/url-policy.js'

describe('webhook address classes (SSRF)', () => {
  const refused: [string, RegExp][] = [
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
    ['10.0.0.1', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /link-local/],
    ['100.64.0.1', /CGNAT/],
    ['100.127.255.255', /CGNAT/],
    ['0.0.0.0', /unspecified/],
    ['224.0.0.1', /multicast/],
    ['255.255.255.255', /reserved/],
    ['::', /unspecified/],
    ['::1', /loopback/],
    ['0:0:0:0:0:0:0:1', /loopback/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['febf::1', /link-local/],
    ['fc00::1', /private/],
    ['fd12:3456::1', /private/],
    ['ff02::1', /multicast/],
    ['::ffff:127.0.0.1', /loopback \(IPv4 in IPv6\)/],
    ['::ffff:7f00:1', /loopback \(IPv4 in IPv6\)/],
    ['::ffff:a9fe:a9fe', /link-local \(IPv4 in IPv6\)/],
    ['::ffff:10.0.0.1', /private \(IPv4 in IPv6\)/],
    ['::127.0.0.1', /loopback \(IPv4 in IPv6\)/],
    ['64:ff9b::7f00:1', /loopback \(IPv4 in IPv6\)/],
    ['2002:7f00:1::', /loopback \(IPv4 in IPv6\)/],
    ['2002:c0a8:101::1', /private \(IPv4 in IPv6\)/],
    ['2001:db8::1', /documentation/],
    ['::ffff:0:127.0.0.1', /IPv4-translated/],
    ['::ffff:0:7f00:1', /IPv4-translated/],
    ['::ffff:0:8.8.8.8', /IPv4-translated/],
    ['0:0:0:0:ffff:0:a9fe:a9fe', /IPv4-translated/],
    ['64:ff9b:1::7f00:1', /local-use NAT64/],
    ['64:ff9b:1::808:808', /local-use NAT64/],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', /local-use NAT64/],
    ['64:ff9b:1:7f00:1::', /local-use NAT64/],
    ['not-an-ip', /not an IP address/],
    ['1:2:3:4:5:6:7:8:9', /not an IP address/],
    ['1::2::3', /not an IP address/],
  ]
  it.each(refused)('%s is not public', (ip, what) => expect(addressClass(ip)).toMatch(what))

  const pub = [
    '1.1.1.1',
    '8.8.8.8',
    '100.63.255.255',
    '100.128.0.0',
    '172.32.0.1',
    '192.169.0.1',
    '169.255.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '::fffe:0:808:808',
    '64:ff9b:2::1',
    '64:ff9b:0:1::808:808',
  ]
  it.each(pub)('%s is public', (ip) => expect(addressClass(ip)).toBeNull())

  it('allowed ranges and hosts open exactly what they name; multicast never', () => {
    const p = new UrlPolicy({
      allowPrivate: false,
      allowedHosts: ['hooks.internal'],
      allowedCidrs: ['127.0.0.1/32', '10.1.0.0/16', 'fd00::/8'],
    })
    expect(p.refusal('127.0.0.1')).toBeNull()
    expect(p.refusal('::ffff:127.0.0.1')).toBeNull() // the same address
    expect(p.refusal('127.0.0.2')).toMatch(/loopback/)
    expect(p.refusal('10.1.200.3')).toBeNull()
    expect(p.refusal('10.2.0.1')).toMatch(/private/)
    expect(p.refusal('fd00::5')).toBeNull()
    expect(p.refusal('::1')).toMatch(/loopback/)
    expect(p.refusal('192.168.0.1', 'hooks.internal')).toBeNull()
    expect(p.refusal('192.168.0.1', 'other.internal')).toMatch(/private/)
    // The IPv4-translated form of an allowed IPv4 address is allowed too; the two IPv6 ranges are opened by naming
    // them.
    expect(p.refusal('::ffff:0:127.0.0.1')).toBeNull()
    expect(p.refusal('::ffff:0:10.1.0.9')).toBeNull()
    expect(p.refusal('::ffff:0:10.2.0.1')).toMatch(/::ffff:0:10\.2\.0\.1 is an IPv4-translated address/)
    expect(p.refusal('64:ff9b:1::a01:9')).toMatch(/64:ff9b:1::a01:9 is a local-use NAT64 address/)
    const six = new UrlPolicy({
      allowPrivate: false,
      allowedHosts: [],
      allowedCidrs: ['64:ff9b:1:abcd::/64', '::ffff:0:0:0/96'],
    })
    expect(six.refusal('64:ff9b:1:abcd::a01:9')).toBeNull()
    expect(six.refusal('64:ff9b:1:abce::a01:9')).toMatch(/local-use NAT64/)
    expect(six.refusal('::ffff:0:192.168.0.1')).toBeNull()
    expect(six.refusal('::ffff:192.168.0.1')).toMatch(/private \(IPv4 in IPv6\)/)
    expect(
      new UrlPolicy({ allowPrivate: false, allowedHosts: ['nat64.internal'], allowedCidrs: [] }).refusal(
        '64:ff9b:1::1',
        'nat64.internal',
      ),
    ).toBeNull()
    const open = new UrlPolicy({ allowPrivate: true, allowedHosts: [], allowedCidrs: [] })
    expect(open.refusal('169.254.169.254')).toBeNull()
    expect(open.refusal('::ffff:0:127.0.0.1')).toBeNull()
    expect(open.refusal('64:ff9b:1::7f00:1')).toBeNull()
    expect(open.refusal('224.0.0.1')).toMatch(/multicast/)
  })

  it('refuses names resolving to loopback (localhost), other schemes and credentials before resolving', async () => {
    const p = new UrlPolicy({ allowPrivate: false, allowedHosts: [], allowedCidrs: [] })
    await expect(p.validate('http://localhost:8080/x')).rejects.toThrow(
      /url: refused: localhost resolves to .*loopback/,
    )
    await expect(p.validate('http://LOCALHOST./x')).rejects.toThrow(/refused|does not resolve/)
    await expect(p.validate('file:///etc/passwd')).rejects.toThrow(/scheme file/)
    await expect(p.validate('gopher://1.1.1.1/')).rejects.toThrow(/scheme gopher/)
    await expect(p.validate('http://a:b@1.1.1.1/')).rejects.toThrow(/credentials/)
    await expect(p.validate('http://[::ffff:169.254.169.254]/')).rejects.toThrow(/link-local/)
    await expect(p.validate('http://[::ffff:0:169.254.169.254]/')).rejects.toThrow(
      /url: refused: ::ffff:0:a9fe:a9fe is an IPv4-translated address/,
    )
    await expect(p.validate('http://[64:ff9b:1::a9fe:a9fe]/')).rejects.toThrow(
      /url: refused: 64:ff9b:1::a9fe:a9fe is a local-use NAT64 address/,
    )
    await expect(p.validate('http://no-such-host.invalid/')).rejects.toThrow(/does not resolve/)
    expect((await p.validate('http://1.1.1.1/hook')).toString()).toBe('http://1.1.1.1/hook')
  })
})

describe('webhook signatures and schedule', () => {
  it("the webhooks guide's verification code is the tested example's, verbatim", () => {
    const root = path.resolve(import.meta.dirname, '../..')
    const example = fs.readFileSync(path.join(root, 'examples/webhook-receiver.mjs'), 'utf8')
    const fn = /\/\*\*\n \* Whether `header`[\s\S]*?\nexport function verifyProfilerSignature[\s\S]*?\n}\n/.exec(
      example,
    )
    expect(fn).not.toBeNull()
    expect(fs.readFileSync(path.join(root, 'docs/guides/webhooks.md'), 'utf8')).toContain('```js\n' + fn![0] + '```')
  })

  it('the verification accepts what the sender signs, with either secret during a rotation, and nothing else', () => {
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'profile.ready',
      created_at: '2026-01-01T00:00:00.000Z',
      data: { profile_id: 'p' },
    })
    const t = Math.floor(Date.now() / 1000)
    const header = signatureHeader(['whsec_new', 'whsec_old'], body, t)
    expect(verifyProfilerSignature('whsec_new', header, body)).toBe(true)
    expect(verifyProfilerSignature('whsec_old', header, Buffer.from(body))).toBe(true)
    expect(verifyProfilerSignature(['whsec_x', 'whsec_old'], header, body)).toBe(true)
    expect(verifyProfilerSignature('whsec_x', header, body)).toBe(false)
    expect(verifyProfilerSignature('whsec_new', header, body + ' ')).toBe(false)
    expect(verifyProfilerSignature('whsec_new', header.replace(`t=${t}`, `t=${t + 1}`), body)).toBe(false)
    expect(verifyProfilerSignature('whsec_new', signatureHeader(['whsec_new'], body, t - 301), body)).toBe(false)
    for (const bad of [
      undefined,
      '',
      't=',
      'v1=abc',
      `t=${t}`,
      `t=${t},v1=zz`,
      `t=${t},v1=${'0'.repeat(63)}`,
      'x'.repeat(100_000),
    ]) {
      expect(verifyProfilerSignature('whsec_new', bad, body)).toBe(false)
    }
  })

  it('backs off exponentially, +-10 % jitter, capped at 512 x base; the default schedule spans over 24 h', () => {
    expect(webhookRetryDelayMs(1, 1000, 0.5)).toBe(1000)
    expect(webhookRetryDelayMs(2, 1000, 0.5)).toBe(2000)
    expect(webhookRetryDelayMs(10, 1000, 0.5)).toBe(512_000)
    expect(webhookRetryDelayMs(40, 1000, 0.5)).toBe(512_000)
    expect(webhookRetryDelayMs(3, 1000, 0)).toBe(3600)
    expect(webhookRetryDelayMs(3, 1000, 0.999999)).toBe(4400)
    const hours = webhookScheduleMs(16, 30_000) / 3600_000
    expect(hours).toBeGreaterThan(29.8)
    expect(hours).toBeLessThan(30)
    let least = 0
    for (let a = 1; a < 16; a++) least += webhookRetryDelayMs(a, 30_000, 0)
    expect(least / 3600_000).toBeGreaterThan(24)
  })
})

describe('webhook secrets at rest', () => {
  it('seals with AES-GCM under the configured key or a key file made once; another key cannot open them', () => {
    const a = SecretBox.open({ key: 'a configured key of enough length' })
    const sealed = a.seal('whsec_abc')
    expect(sealed).toMatch(/^v1:/)
    expect(sealed).not.toContain('abc')
    expect(a.open(sealed)).toBe('whsec_abc')
    expect(() => SecretBox.open({ key: 'another configured key, not the same' }).open(sealed)).toThrow(
      /does not decrypt/,
    )
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA')
    expect(() => a.open(tampered)).toThrow()

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-key-'))
    try {
      const b = SecretBox.open({ dataDir: dir })
      const file = path.join(dir, 'webhook-key')
      expect(fs.statSync(file).mode & 0o777).toBe(0o600)
      expect(SecretBox.open({ dataDir: dir }).open(b.seal('whsec_x'))).toBe('whsec_x')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
    const plain = SecretBox.open({})
    expect(plain.encrypts).toBe(false)
    expect(plain.open(plain.seal('whsec_p'))).toBe('whsec_p')
    expect(() => plain.open(sealed)).toThrow(/PROFILER_WEBHOOK_ENCRYPTION_KEY/)
  })
})
