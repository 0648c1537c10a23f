/**
 * What the demo admin's tests of a request left open share: the shop's clock moved past the 15 minutes
 * after which the back end lists it, the problem row that then shows, and the one console error its
 * outage leaves in the browser.
 */
import { expect } from 'vitest'
import type { Locator, Page } from 'playwright'

/** Past the 15 minutes after which the back end lists a payment, capture, refund or cancel still open. */
const PAST_OPEN_TOO_LONG_MS = 16 * 60_000

/** What the browser logs for a request answered 503 while the service could not be reached: the only console error allowed. */
export const OUTAGE = ['console: Failed to load resource: the server responded with a status of 503 (Service Unavailable)']

/** The shop's clock for a demo stack (`now`), which `passOpenTooLong()` moves past the 15 minutes; the service keeps the real one. */
export function shopClock(): { readonly now: () => Date; passOpenTooLong(): void } {
  let ahead = 0
  return {
    now: () => new Date(Date.now() + ahead),
    passOpenTooLong: () => {
      ahead += PAST_OPEN_TOO_LONG_MS
    },
  }
}

/**
 * The admin's problem row of order `reference` saying `why`: none at first, listed once `clock` has
 * moved past the 15 minutes and the page is loaded again.
 */
export async function problemListedLater(
  page: Page,
  shopUrl: string,
  { reference, why, clock }: { readonly reference: string; readonly why: string; readonly clock: ReturnType<typeof shopClock> },
): Promise<Locator> {
  const problem = page
    .locator('#problems tr')
    .filter({ has: page.locator('td:nth-child(2)', { hasText: new RegExp(`^${reference}$`) }) })
    .filter({ hasText: why })
  await page.goto(`${shopUrl}/admin.html`)
  await page.waitForSelector('body[data-ready="true"]')
  expect(await problem.count()).toBe(0)
  clock.passOpenTooLong()
  await page.reload()
  await page.waitForSelector('body[data-ready="true"]')
  await expect.poll(() => problem.count()).toBe(1)
  return problem
}
