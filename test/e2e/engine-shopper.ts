/** A shopper's browser of one engine for a describe block of the demo's checkout, and its first steps. */
import { afterAll, beforeAll } from 'vitest'
import { launchShopper, type ShopperBrowser } from './shopper-browsers.ts'

/** Launched before the block's tests, closed after them; read `shopper()` inside a test. */
export function shopperOfBlock(engine: ShopperBrowser['engine']): () => ShopperBrowser {
  let shopper: ShopperBrowser | undefined
  beforeAll(async () => {
    shopper = await launchShopper(engine)
  }, 60_000)
  afterAll(() => shopper?.close())
  return () => shopper!
}

/** The shop at `url`, ready, with an order started and the card form on screen. */
export async function openShopCheckout(shopper: ShopperBrowser, url: string): Promise<void> {
  await shopper.open(url)
  await shopper.waitFor('body[data-ready="true"]', { attached: true })
  await shopper.click('#start-checkout')
  await shopper.waitFor('#card-number')
}
