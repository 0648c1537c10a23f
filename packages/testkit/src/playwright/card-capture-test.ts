/**
 * Playwright Test with a `cardCapture` fixture: every request of the test's browser context is
 * recorded from the start, card JWEs are taken by URL pattern and opened with the reference
 * decryptor, and when the test ends every request is scanned once more for card digits in clear.
 * Set `cardDecryptionKey` (the private key of the certificate the page encrypts with), or use
 * `@card-jwe/sandbox/playwright`, which sets it from the sandbox it starts.
 */
import { test as base, expect } from '@playwright/test'
import { captureCardRequests, type CardCapture } from '../capture/capture-card-requests.js'
import type { PrivateKeyInput } from '../decryptor/lib/private-key.js'

/** The test-scoped fixture this module adds. */
export interface CardCaptureFixtures {
  /** The capture of this test's context; see `CardCapture` in `@card-jwe/testkit/capture`. */
  cardCapture: CardCapture
}

/** The worker-scoped option this module adds. */
export interface CardCaptureOptions {
  /** The private key (PEM) matching the certificate the page encrypts with. */
  cardDecryptionKey: PrivateKeyInput | undefined
}

/** Playwright's `test`, with `cardCapture` and the `cardDecryptionKey` option. */
export const test = base.extend<CardCaptureFixtures, CardCaptureOptions>({
  cardDecryptionKey: [undefined, { scope: 'worker', option: true }],
  cardCapture: async ({ context, cardDecryptionKey }, use) => {
    if (cardDecryptionKey === undefined) {
      throw new Error(
        'cardCapture: set the cardDecryptionKey option (test.use) to the private key of the certificate the page encrypts with, ' +
          'or use @card-jwe/sandbox/playwright',
      )
    }
    const capture = await captureCardRequests(context, { privateKey: cardDecryptionKey })
    await use(capture)
    capture.stop()
    // Requests after the last nextCard (a confirmation page, a beacon) are checked too.
    capture.expectNoCardDigits()
  },
})

export { expect }
export { CardCaptureError, EXPECTED_CARD_JWE_HEADER } from '../capture/index.js'
export type { CapturedCard, CardCapture, CardCaptureErrorCode, TypedCard, UrlPattern } from '../capture/index.js'
export { findTestCard, TEST_CARDS, testCardExpiry } from '../test-cards.js'
export type { FindTestCardOptions, TestCard, ThreeDSecureFlow } from '../test-cards.js'
