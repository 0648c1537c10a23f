/**
 * A changed copy of the demo's built checkout page, to prove the Playwright fixture catches a page
 * that leaks. The change goes into the page's own module, whose integrity hash is then
 * updated, so the shop serves it as it would a new build.
 */
import { createHash } from 'node:crypto'
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * `clear-digit`: the JWE carries the card number without its last digit, which the payment
 * request carries beside it in clear. `old-jwe`: the page sends a JWE whose generationtime is 25
 * hours old (what a kept and reused JWE looks like; a test cannot wait a day).
 */
export type PageChange = 'clear-digit' | 'old-jwe'

// Runs first in the page's module: wraps the AES-GCM step of the JWE and the page's fetch.
const changeScript = (change: PageChange) => `;(() => {
  const change = ${JSON.stringify(change)}
  let clearDigit
  const encrypt = SubtleCrypto.prototype.encrypt
  SubtleCrypto.prototype.encrypt = function (algorithm, key, data) {
    if (algorithm && algorithm.name === 'AES-GCM') {
      const payload = JSON.parse(new TextDecoder().decode(data))
      if (change === 'clear-digit') {
        clearDigit = payload.number.slice(-1)
        payload.number = payload.number.slice(0, -1)
      }
      if (change === 'old-jwe') payload.generationtime = new Date(Date.now() - 25 * 3600 * 1000).toISOString()
      data = new TextEncoder().encode(JSON.stringify(payload))
    }
    return encrypt.call(this, algorithm, key, data)
  }
  const send = window.fetch
  window.fetch = function (input, init) {
    if (clearDigit !== undefined && init && typeof init.body === 'string' && String(input).endsWith('/api/payments')) {
      init = { ...init, body: JSON.stringify({ ...JSON.parse(init.body), lastDigit: clearDigit }) }
    }
    return send.call(this, input, init)
  }
})();
`

const sri = (bytes: Buffer | string) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`

/** Copies the built pages and changes the checkout module; returns the copy's folder. */
export function changedCheckoutPage(frontDir: string, change: PageChange): string {
  const copy = mkdtempSync(join(tmpdir(), `demo-front-${change}-`))
  cpSync(frontDir, copy, { recursive: true })
  // The page's own module: "checkout-" and its 8-character hash, not checkout-actions-… or checkout-flow-….
  const module = readdirSync(join(copy, 'assets')).find((file) => /^checkout-[\w-]{8}\.js$/.test(file))
  if (!module) throw new Error('no checkout module in the built pages')
  const path = join(copy, 'assets', module)
  const before = readFileSync(path)
  const after = changeScript(change) + before.toString('utf8')
  writeFileSync(path, after)
  for (const page of ['index.html', 'integrity.json']) {
    const text = readFileSync(join(copy, page), 'utf8')
    if (!text.includes(sri(before))) throw new Error(`${page} does not name the checkout module's hash`)
    writeFileSync(join(copy, page), text.replaceAll(sri(before), sri(after)))
  }
  return copy
}
