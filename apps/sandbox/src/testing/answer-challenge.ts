import { CHALLENGE_ANSWER } from '../pages/threeds.js'

/**
 * What {@link answerChallenge} uses of a page: Playwright's `Page` fits, from `@playwright/test` or
 * `playwright-core`, so neither is needed for the types.
 */
export interface ChallengePage {
  /** The page's frames, itself first: the challenge is in one of them. */
  frames(): readonly ChallengeFrame[]
}

/** What {@link answerChallenge} uses of a frame (Playwright's `Frame`). */
export interface ChallengeFrame {
  /** The frame's address: the challenge page's path tells it apart. */
  url(): string
  /** Whether the page removed the frame: after the answer, that means the click got through. */
  isDetached(): boolean
  /** The answer field and the submit button. */
  locator(selector: string): ChallengeElement
}

/** What {@link answerChallenge} uses of an element (Playwright's `Locator`). */
export interface ChallengeElement {
  /** Whether it shows. */
  isVisible(): Promise<boolean>
  /** Types the answer. */
  fill(value: string): Promise<void>
  /** Sends the answer. */
  click(options: { noWaitAfter: boolean; timeout: number }): Promise<void>
}

/** How long {@link answerChallenge} waits for the sandbox's challenge page to show. */
export const CHALLENGE_PAGE_TIMEOUT_MS = 15_000
/** The path the sandbox's challenge (ACS) page is posted to. */
const ACS_PATH = '/threeds/acs'

const isAcsFrame = (frame: ChallengeFrame) => {
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
  page: ChallengePage,
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
