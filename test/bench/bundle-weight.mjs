/**
 * 3. Bundle weight, minified and gzip, bundled the same way: our browser entries, the demo page's
 * scripts as served, jose alone, and what a shop would otherwise load (bench-only dev dependencies).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { BROWSER_ENTRIES, measure } from '../../scripts/bundle-size.mjs'

const here = (path) => fileURLToPath(new URL(path, import.meta.url))

/** Peers, as a shop would import them for a card form (entries live here so they resolve test/'s packages). */
const PEERS = {
  'jose (importX509 + CompactEncrypt)': "export { importX509, CompactEncrypt } from 'jose'",
  '@adyen/adyen-web Card': "export { AdyenCheckout, Card } from '@adyen/adyen-web'",
  'braintree-web client + hosted-fields':
    "export { default as client } from 'braintree-web/client'\nexport { default as hostedFields } from 'braintree-web/hosted-fields'",
  'node-jose': "export { default } from 'node-jose'",
}

export async function bundleWeight() {
  const rows = []
  for (const [name, { entry, gzipBudget }] of Object.entries(BROWSER_ENTRIES))
    rows.push({ name, ...(await sizes(entry)), budget: gzipBudget })
  // The demo checkout page's scripts exactly as built and served.
  const front = here('../../apps/demo/dist/front/')
  const html = readFileSync(`${front}index.html`, 'utf8')
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1])
  const served = files.map((f) => readFileSync(`${front}${f}`))
  rows.push({
    name: 'demo checkout page (all its scripts, as built by Vite)',
    minified: served.reduce((n, b) => n + b.length, 0),
    gzip: served.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0),
  })
  mkdirSync(here('./.entries'), { recursive: true })
  for (const [name, code] of Object.entries(PEERS)) {
    const entry = here(`./.entries/${name.replace(/[^a-z0-9]+/gi, '-')}.js`)
    writeFileSync(entry, `${code}\n`)
    try {
      rows.push({ name, ...(await sizes(entry)) })
    } catch (error) {
      rows.push({
        name,
        minified: null,
        gzip: null,
        note: `does not bundle for browsers as is (${String(error.message).split('\n')[0].slice(0, 100)})`,
      })
    }
  }
  const by = (n) => rows.find((r) => r.name === n)
  return {
    rows,
    targets: {
      'card-jwe <= 10 kB gzip': by('card-jwe').gzip <= 10_000,
      'card-jwe + browser-info <= 11 kB gzip': by('card-jwe + browser-info').gzip <= 11_000,
    },
  }
}

async function sizes(entry) {
  const { minified, gzip } = await measure(entry)
  return { minified, gzip }
}
