import { expect } from 'vitest'
import type { Locator, Page } from 'playwright'

/** Past the 15 minutes after which the back end lists a payment, capture, refund or cancel still open. */
export const PAST_OPEN_TOO_LONG_MS = 16 * 60_000

/**
 * The admin's problem row of order `reference` saying `why`: none at first, listed once
 * `passTime()` has moved the shop's clock past the 15 minutes and the page is loaded again.
 */
export async function problemListedLater(
  page: Page,
  shopUrl: string,
  { reference, why, passTime }: { readonly reference: string; readonly why: string; readonly passTime: () => void },
): Promise<Locator> {
  const problem = page
    .locator('#problems tr')
    .filter({ has: page.locator('td:nth-child(2)', { hasText: new RegExp(`^${reference}$`) }) })
    .filter({ hasText: why })
  await page.goto(`${shopUrl}/admin.html`)
  await page.waitForSelector('body[data-ready="true"]')
  expect(await problem.count()).toBe(0)
  passTime()
  await page.reload()
  await page.waitForSelector('body[data-ready="true"]')
  await expect.poll(() => problem.count()).toBe(1)
  return problem
}
