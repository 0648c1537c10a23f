/**
 * What a shopper does on the demo's checkout page, shared by the browser tests. Typing waits for
 * the card form to be shown: Playwright's pressSequentially() does not wait for visibility, so keys
 * sent while POST /api/orders is still out would land nowhere and the card number come out short.
 */
import type { Locator, Page } from 'playwright'
import type { TestCard } from '@card-jwe/testkit/test-cards'

/** The shop's page, ready, with an order started and the card fields on screen. */
export async function openCheckout(page: Page, shopUrl: string): Promise<void> {
  await page.goto(shopUrl)
  await page.waitForSelector('body[data-ready="true"]')
  await page.getByRole('button', { name: 'Continue to payment' }).click()
  await page.getByLabel('Card number').waitFor({ state: 'visible' })
}

export async function typeCard(page: Page, card: TestCard, holderName?: string): Promise<void> {
  await page.getByLabel('Card number').pressSequentially(card.number)
  await page.getByLabel('Expiry date (MM/YY)').pressSequentially(`${card.expiryMonth}${card.expiryYear.slice(2)}`)
  if (card.securityCode)
    await page
      .locator('#card-form')
      .getByLabel(/Security code/)
      .fill(card.securityCode)
  if (holderName !== undefined) await page.getByLabel('Name on card (optional)').fill(holderName)
}

/**
 * The result section once shown. If it never shows, the error says what the page said instead
 * (its status line and any field errors), so a failed run explains itself.
 */
export async function result(page: Page): Promise<{ title: string; code: string; order: string }> {
  try {
    await page.locator('#result').waitFor({ state: 'visible', timeout: 20_000 })
  } catch (error) {
    const status = await page.textContent('#status').catch(() => null)
    const fieldErrors = await page
      .locator('#card-form .error:not([hidden])')
      .allTextContents()
      .catch(() => [])
    throw new Error(`no payment result shown; page status: ${JSON.stringify(status)}; field errors: ${JSON.stringify(fieldErrors)}`, {
      cause: error,
    })
  }
  return {
    title: (await page.textContent('#result-title'))!,
    code: (await page.textContent('#result-code'))!,
    order: (await page.textContent('#result-order'))!,
  }
}

/**
 * A new order paid with `card` from the shop's page: `before` runs on the ready page (a quantity, a
 * sign-in), `saveCard` ticks "Save my card". Its reference, once the payment is Authorised.
 */
export async function payNewOrder(
  page: Page,
  shopUrl: string,
  card: TestCard,
  options: { readonly before?: () => Promise<void>; readonly saveCard?: boolean } = {},
): Promise<string> {
  await page.goto(shopUrl)
  await page.waitForSelector('body[data-ready="true"]')
  await options.before?.()
  await page.getByRole('button', { name: 'Continue to payment' }).click()
  await page.getByLabel('Card number').waitFor({ state: 'visible' })
  await typeCard(page, card, 'A. Shopper')
  if (options.saveCard) await page.click('#save-card')
  await page.getByRole('button', { name: /^Pay/ }).click()
  const paid = await result(page)
  if (paid.code !== 'Authorised') throw new Error(`the order was not paid: ${paid.code}`)
  return paid.order.split(' ')[0]!
}

/** The admin page, ready, and the orders table's row of the order `reference`. */
export async function adminRow(page: Page, shopUrl: string, reference: string): Promise<Locator> {
  await page.goto(`${shopUrl}/admin.html`)
  await page.waitForSelector('body[data-ready="true"]')
  return page.locator('#orders tr', { hasText: reference })
}
