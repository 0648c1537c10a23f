/**
 * The ACS challenge page in real Chromium, as a shop's checkout would show it: an iframe posted a
 * CReq, the shopper types into the sandbox's page, and the result reaches the shop's page through
 * postMessage from the sandbox's origin, and only to the shop's origin.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Browser } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit'
import { CHALLENGE_ANSWER } from '@card-jwe/sandbox'
import { chromiumLaunchOptions } from '../../../test/support/browsers.js'
import { registeredShop, type RegisteredShop } from './support/sandbox-fixture.js'
import { actionField, decodeToken, runThreeDSMethod } from './support/browser-steps.js'

/** A checkout page that runs the challenge step in an iframe and keeps what the ACS reports. */
function checkoutPage(acsUrl: string, creq: string, sandboxOrigin: string): string {
  return `<!doctype html><html><body>
<iframe name="challenge" title="Card verification" style="width:390px;height:400px"></iframe>
<form id="creq" method="post" action="${acsUrl}" target="challenge"><input type="hidden" name="creq" value="${creq}"></form>
<script>
window.results = [];
window.addEventListener('message', (event) => {
  // Only the sandbox's origin may report a challenge result.
  if (event.origin !== ${JSON.stringify(sandboxOrigin)}) return;
  window.results.push({ origin: event.origin, data: event.data });
});
document.getElementById('creq').submit();
</script></body></html>`
}

let fixture: RegisteredShop
let browser: Browser
let shopPage: Server
let shopOrigin: string
let pageHtml = ''

beforeAll(async () => {
  fixture = await registeredShop()
  browser = await chromium.launch(chromiumLaunchOptions())
  shopPage = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml))
  await new Promise<void>((resolve) => shopPage.listen(0, '127.0.0.1', resolve))
  shopOrigin = `http://127.0.0.1:${(shopPage.address() as AddressInfo).port}`
})

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => shopPage.close(resolve))
  await fixture.close()
})

describe('sandbox ACS challenge page in Chromium', () => {
  it.each([
    [CHALLENGE_ANSWER, 'Y', 'Authorised'],
    ['1234', 'N', 'Refused'],
  ])('typing "%s" gives transStatus %s and %s', async (answer, transStatus, resultCode) => {
    const card = findTestCard({ brand: 'american-express', threeDSecure: 'challenge' })
    const request = await fixture.cardPayment(card, { returnUrl: `${shopOrigin}/checkout/return` })
    const first = await fixture.client.createPayment(fixture.storeId, request)
    const second = await fixture.client.paymentDetails(fixture.storeId, {
      details: { threeDSResult: await runThreeDSMethod(actionField(first, 'token')) },
    })
    const token = decodeToken(actionField(second, 'token'))
    const creq = Buffer.from(
      JSON.stringify({
        threeDSServerTransID: token.threeDSServerTransID,
        acsTransID: token.acsTransID,
        messageVersion: token.messageVersion,
        messageType: 'CReq',
        challengeWindowSize: '02',
      }),
    ).toString('base64url')
    pageHtml = checkoutPage(token.acsURL!, creq, fixture.sandbox.baseUrl)

    const page = await browser.newPage()
    const consoleErrors: string[] = []
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()))
    await page.goto(`${shopOrigin}/checkout`)
    const acs = page.frameLocator('iframe[name="challenge"]')
    await acs.getByLabel(/Password/).fill(answer)
    await acs.getByRole('button', { name: 'Confirm' }).click()
    await page.waitForFunction(() => (window as unknown as { results: unknown[] }).results.length > 0)
    const results = await page.evaluate(() => (window as unknown as { results: unknown[] }).results)
    expect(results).toEqual([
      {
        origin: fixture.sandbox.baseUrl,
        data: { type: 'threeDSChallengeCompleted', threeDSServerTransID: token.threeDSServerTransID, transStatus },
      },
    ])
    expect(consoleErrors).toEqual([])
    await page.close()

    const threeDSResult = Buffer.from(JSON.stringify({ transStatus, threeDSServerTransID: token.threeDSServerTransID })).toString('base64')
    expect((await fixture.client.paymentDetails(fixture.storeId, { details: { threeDSResult } })).resultCode).toBe(resultCode)
  })
})
