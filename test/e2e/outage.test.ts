/**
 * The payment service goes down while a shopper checks out, and comes back. The
 * shopper reads a plain message at once (no empty section, no "internal error"), and a retry on the
 * same order pays once the service is back. Chromium through Playwright, Firefox and WebKit through
 * their own drivers; each engine has its own shop and sandbox, stopped and restarted on its port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '@card-jwe/sandbox'
import { messages as FLOW_EN } from '@card-jwe/checkout/locales/en'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { openCheckout, result, typeCard } from './checkout-steps.js'
import { startDemoStack, type DemoStack } from './demo-stack.js'
import { launchShopper, typeTestCard, type ShopperBrowser } from './shopper-browsers.js'
import { wantedEngines } from '../support/browsers.js'

/** The package's words for the back end's SERVICE_UNREACHABLE. */
const UNREACHABLE = FLOW_EN.unavailable
const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })

/** Stops the stack's sandbox; `restart` brings it back on the same port with the same data. */
async function serviceDown(stack: DemoStack): Promise<{ restart(): Promise<RunningSandbox> }> {
  await stack.sandbox.sandbox.close()
  return {
    restart: () => startSandbox({ dataDir: stack.sandbox.dataDir, port: Number(new URL(stack.sandbox.baseUrl).port), log: () => {} }),
  }
}

describe('the service goes down and comes back, in chromium', () => {
  let stack: DemoStack
  let restarted: RunningSandbox | undefined
  beforeAll(async () => {
    stack = await startDemoStack()
  }, 60_000)
  afterAll(async () => {
    await restarted?.close()
    await stack?.close().catch(() => {})
  })

  it('says so plainly when paying and on reload, keeps the order, and pays it once the service is back', async () => {
    const { page } = await stack.page()
    await openCheckout(page, stack.shop.url)
    const summary = (await page.textContent('#order-summary'))!
    const down = await serviceDown(stack)
    await typeCard(page, card, 'A. Shopper')
    await page.getByRole('button', { name: /^Pay/ }).click()
    const failed = await result(page)
    expect(failed).toMatchObject({ code: 'SERVICE_UNREACHABLE', title: UNREACHABLE })
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height })
      await stack.screenshot(page, `outage-payment-${width}`)
    }

    await page.reload()
    await page.waitForSelector('body[data-ready="true"]')
    await page.getByRole('button', { name: 'Continue to payment' }).click()
    await page.locator('#payment-unavailable').waitFor()
    expect(await page.locator('#card-form').isHidden()).toBe(true)
    await stack.screenshot(page, 'outage-reload-1280')

    restarted = await down.restart()
    await page.getByRole('button', { name: 'Try again' }).click()
    await page.getByLabel('Card number').waitFor()
    expect(await page.textContent('#status')).toBe('The payment service is back. You can pay now.')
    await typeCard(page, card)
    await page.getByRole('button', { name: /^Pay/ }).click()
    expect((await result(page)).code).toBe('Authorised')

    // The order of the failed attempt is still payable: "Try another card or method" from its result.
    expect(failed.order.split(' ')[0]).toBe(/^Order (\S+):/.exec(summary)![1])
  })

  it('a challenge whose bank page cannot load: "Cancel this payment" ends it cleanly, and the order pays another way', async () => {
    const { page } = await stack.page()
    await openCheckout(page, stack.shop.url)
    await typeCard(page, findTestCard({ brand: 'visa', threeDSecure: 'challenge' }), 'A. Shopper')
    // The bank's page fails to load in the shopper's browser (its server refuses the connection).
    await page.route('**/threeds/acs', (route) => route.abort('connectionrefused'))
    await page.getByRole('button', { name: /^Pay/ }).click()
    await page.getByRole('button', { name: 'Cancel this payment' }).waitFor()
    await stack.screenshot(page, 'challenge-cannot-load-1280')
    await page.getByRole('button', { name: 'Cancel this payment' }).click()
    const cancelled = await result(page)
    expect(cancelled).toMatchObject({ title: FLOW_EN.notFinished, code: 'ERR_ABORTED' })
    await page.unroute('**/threeds/acs')
    await page.getByRole('button', { name: 'Try another card or method' }).click()
    await typeCard(page, card)
    await page.getByRole('button', { name: /^Pay/ }).click()
    expect(await result(page)).toMatchObject({ code: 'Authorised', order: cancelled.order })
  })
})

const engines = (['firefox', 'webkit'] as const).filter((engine) => wantedEngines().has(engine))

describe.each(engines)('the service goes down and comes back, in %s', (engine) => {
  let stack: DemoStack
  let shopper: ShopperBrowser
  let restarted: RunningSandbox | undefined
  beforeAll(async () => {
    stack = await startDemoStack({ launchChromium: false })
    shopper = await launchShopper(engine)
  }, 60_000)
  afterAll(async () => {
    await shopper?.close()
    await restarted?.close()
    await stack?.close().catch(() => {})
  })

  it('says so plainly when paying, and "Try another card or method" pays the same order once it is back', async () => {
    await shopper.open(stack.shop.url)
    await shopper.waitFor('body[data-ready="true"]', { attached: true })
    await shopper.click('#start-checkout')
    await shopper.waitFor('#card-number')
    const down = await serviceDown(stack)
    const typeCardHere = () => typeTestCard(shopper, card)
    await typeCardHere()
    await shopper.click('#pay')
    await shopper.waitFor('#result')
    expect(await shopper.text('#result-code')).toBe('SERVICE_UNREACHABLE')
    expect(await shopper.text('#result-title')).toBe(UNREACHABLE)
    const order = await shopper.text('#result-order')
    restarted = await down.restart()
    await shopper.click('#retry-payment')
    await shopper.waitFor('#card-number')
    await typeCardHere()
    await shopper.click('#pay')
    await shopper.waitFor('#result')
    expect(await shopper.text('#result-code')).toBe('Authorised')
    expect(await shopper.text('#result-order')).toBe(order)
  })
})

/** Forwards to the service until frozen; frozen, it takes requests and never answers (a hung service). */
async function freezableProxy(): Promise<{ target(url: string): string; freeze(frozen: boolean): void; close(): Promise<void> }> {
  let upstream = ''
  let frozen = false
  const { createServer, request } = await import('node:http')
  const server = createServer((req, res) => {
    if (frozen) return // held: the shop's timeout decides
    const forward = request(
      new URL(req.url!, upstream),
      { method: req.method, headers: { ...req.headers, host: new URL(upstream).host } },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers)
        answer.pipe(res)
      },
    )
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    target(url) {
      upstream = url
      return `http://127.0.0.1:${port}`
    },
    freeze: (on) => {
      frozen = on
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describe('a frozen service, in chromium', () => {
  let stack: DemoStack
  let proxy: Awaited<ReturnType<typeof freezableProxy>>
  beforeAll(async () => {
    proxy = await freezableProxy()
    stack = await startDemoStack({ serviceUrlFor: async (url) => proxy.target(url) })
  }, 60_000)
  afterAll(async () => {
    await stack?.close()
    await proxy?.close()
  })

  it('a hung service: the shopper reads the plain message after the shop gives up, and the same order pays later', async () => {
    const { page } = await stack.page()
    await openCheckout(page, stack.shop.url)
    await typeCard(page, card, 'A. Shopper')
    proxy.freeze(true)
    const started = Date.now()
    await page.getByRole('button', { name: /^Pay/ }).click()
    await page.locator('#result').waitFor({ timeout: 30_000 })
    // Recorded for the closing note, not asserted: speed is a benchmark's matter.
    console.log(`frozen service: result shown after ${Date.now() - started} ms`)
    expect(await page.textContent('#result-title')).toBe(UNREACHABLE)
    const failed = (await page.textContent('#result-order'))!
    proxy.freeze(false)
    await page.getByRole('button', { name: 'Try another card or method' }).click()
    await typeCard(page, card)
    await page.getByRole('button', { name: /^Pay/ }).click()
    expect(await result(page)).toMatchObject({ code: 'Authorised', order: failed })
  }, 60_000)
})

describe.each(engines)('a frozen service, in %s', (engine) => {
  let stack: DemoStack
  let shopper: ShopperBrowser
  let proxy: Awaited<ReturnType<typeof freezableProxy>>
  beforeAll(async () => {
    proxy = await freezableProxy()
    stack = await startDemoStack({ launchChromium: false, serviceUrlFor: async (url) => proxy.target(url) })
    shopper = await launchShopper(engine)
  }, 60_000)
  afterAll(async () => {
    await shopper?.close()
    await stack?.close()
    await proxy?.close()
  })

  it('the shopper reads the plain message after the shop gives up, and the same order pays later', async () => {
    await shopper.open(stack.shop.url)
    await shopper.waitFor('body[data-ready="true"]', { attached: true })
    await shopper.click('#start-checkout')
    await shopper.waitFor('#card-number')
    await typeTestCard(shopper, card)
    proxy.freeze(true)
    await shopper.click('#pay')
    await shopper.waitFor('#result', { timeoutMs: 30_000 })
    expect(await shopper.text('#result-title')).toBe(UNREACHABLE)
    const order = await shopper.text('#result-order')
    proxy.freeze(false)
    await shopper.click('#retry-payment')
    await shopper.waitFor('#card-number')
    await typeTestCard(shopper, card)
    await shopper.click('#pay')
    await shopper.waitFor('#result')
    expect(await shopper.text('#result-code')).toBe('Authorised')
    expect(await shopper.text('#result-order')).toBe(order)
  }, 60_000)
})
