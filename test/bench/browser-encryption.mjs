/**
 * 2. Browser encryption in real Chromium, page served on loopback: raw WebCrypto floor, jose alone
 * and card-jwe in steady state (one card at a time, as a checkout does), and card-jwe's time from
 * certificate text to the first JWE in a fresh page.
 */
import { createServer } from 'node:http'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { chromium } from 'playwright'
import { createTestCertificate, findTestCard } from '@card-jwe/testkit'
import { ratio, round } from './measure.mjs'

function launchOptions() {
  const args = [
    '--no-sandbox',
    '--headless',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ]
  const system = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  return existsSync(system) ? { executablePath: system, args } : { args }
}

const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)]

export async function browserEncryption({ seconds, rounds = 3 }) {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./browser-page.mjs', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  })
  const script = bundle.outputFiles[0].text
  const server = createServer((req, res) => {
    if (req.url === '/bench.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><body><script type="module" src="/bench.js"></script></body>')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${server.address().port}/`
  const browser = await chromium.launch(launchOptions())
  const { certificatePem } = await createTestCertificate()
  const card = findTestCard({ brand: 'visa', threeDSecure: 'none' })
  try {
    const page = await browser.newPage()
    await page.goto(url)
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' })
    const samples = { floor: [], jose: [], 'card-jwe': [], normalize: [] }
    for (let r = 0; r < rounds; r++) {
      for (const kind of Object.keys(samples))
        samples[kind].push(
          await page.evaluate(
            ([k, pem, c, ms]) => window.bench.steady(k, pem, c, ms),
            [kind, certificatePem, card, (seconds * 1000) / rounds],
          ),
        )
    }
    /** `window.bench[measure]` once in each of five freshly loaded pages. */
    const inFreshPages = async (measure) => {
      const results = []
      for (let i = 0; i < 5; i++) {
        const fresh = await browser.newPage()
        await fresh.goto(url)
        await fresh.waitForSelector('body[data-ready="true"]', { state: 'attached' })
        results.push(await fresh.evaluate(([m, pem, c]) => window.bench[m](pem, c), [measure, certificatePem, card]))
        await fresh.close()
      }
      return results
    }
    const firsts = await inFreshPages('firstJwe')
    const afterMount = await inFreshPages('firstAfterMount')
    const afterMountMs = median(afterMount)
    const idle = await inFreshPages('afterIdle')
    const afterIdleMs = median(idle.map((r) => r.encryption))
    const aesAfterIdleMs = median(idle.map((r) => r.aesGcm))
    const floor = median(samples.floor)
    const jose = median(samples.jose)
    const cardJwe = median(samples['card-jwe'])
    const steadyMs = 1000 / cardJwe
    const firstMs = median(firsts.map((f) => f.total))
    const breakdown = Object.fromEntries(
      ['importCertificate', 'firstEncrypt', 'secondEncrypt'].map((k) => [k, round(median(firsts.map((f) => f[k])), 2)]),
    )
    const rows = [
      { name: 'WebCrypto floor', opsPerSecond: round(floor), vsFloor: 1, vsJose: ratio(floor, jose) },
      { name: 'jose alone', opsPerSecond: round(jose), vsFloor: ratio(jose, floor), vsJose: 1 },
      { name: 'card-jwe', opsPerSecond: round(cardJwe), vsFloor: ratio(cardJwe, floor), vsJose: ratio(cardJwe, jose) },
    ]
    return {
      browser: `Chromium ${browser.version()}`,
      rows,
      firstJweMs: round(firstMs, 2),
      firstJweBreakdownMs: breakdown,
      normalizePerCardUs: round(1e6 / median(samples.normalize), 2),
      steadyOpMs: round(steadyMs, 3),
      firstVsSteady: ratio(firstMs, steadyMs),
      firstAfterMountMs: round(afterMountMs, 2),
      firstAfterMountVsSteady: ratio(afterMountMs, steadyMs),
      afterIdleMs: round(afterIdleMs, 2),
      firstAfterMountVsAfterIdle: ratio(afterMountMs, afterIdleMs),
      aesAfterIdleMs: round(aesAfterIdleMs, 2),
      targets: {
        'card-jwe steady state >= 0.95 of jose': cardJwe / jose >= 0.95,
        'first JWE within 3x one steady-state operation': firstMs <= 3 * steadyMs,
        'first JWE after Pay, certificate imported and warmed at mount (@card-jwe/checkout), within 3x steady':
          afterMountMs <= 3 * steadyMs,
      },
    }
  } finally {
    await browser.close()
    server.close()
  }
}
