import type { Frame, Page } from '@playwright/test'
import { CHALLENGE_ANSWER } from '../pages/threeds.js'

/** How long {@link answerChallenge} waits for the sandbox's challenge page to show. */
export const CHALLENGE_PAGE_TIMEOUT_MS = 15_000
/** The path the sandbox's challenge (ACS) page is posted to. */
const ACS_PATH = '/threeds/acs'

const isAcsFrame = (frame: Frame) => {
  try {
    return new URL(frame.url()).pathname === ACS_PATH
  } catch {
    return false
  }
}

/**
 * Answers the sandbox's 3-D Secure challenge as a shopper would, wherever the page shows it (an
 * iframe, or the page itself): `approve` types the one accepted answer, `refuse` a wrong one.
 */
export async function answerChallenge(
  page: Page,
  answer: 'approve' | 'refuse',
  options: { readonly timeout?: number } = {},
): Promise<void> {
  const timeout = options.timeout ?? CHALLENGE_PAGE_TIMEOUT_MS
  const deadline = Date.now() + timeout
  while (Date.now() < deadline) {
    const frame = page.frames().find(isAcsFrame)
    const field = frame?.locator('#answer')
    if (frame && field && (await field.isVisible().catch(() => false))) {
      await field.fill(answer === 'approve' ? CHALLENGE_ANSWER : `not-${CHALLENGE_ANSWER}`)
      try {
        await frame.locator('button[type="submit"]').click({ noWaitAfter: true, timeout: 5_000 })
      } catch (error) {
        // The answer ends the challenge and the page removes the frame: then the click got through.
        if (!frame.isDetached()) throw error
      }
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`answerChallenge: the sandbox's challenge page (${ACS_PATH}) did not show within ${timeout} ms`)
}
