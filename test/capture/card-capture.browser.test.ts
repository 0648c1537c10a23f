/**
 * The Vitest browser-mode helpers as a shop's test uses them: the run's sandbox from the global
 * set-up, the capture commands keyed with its private key, real requests of the test page.
 */
import { describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { testSandbox } from '@card-jwe/sandbox/vitest'
import type {} from '@card-jwe/sandbox/vitest-commands'
import { findTestCard } from '@card-jwe/testkit/test-cards'

const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })

/** What a page would send to its shop; the probe path answers 404, the request is what counts. */
async function pay(extra: Record<string, unknown> = {}): Promise<void> {
  const jwe = await encryptCard(card, await importCertificate(testSandbox().certificatePem))
  await fetch('/capture-probe/api/payments', {
    method: 'POST',
    body: JSON.stringify({ orderId: 1, paymentMethod: toPaymentMethod(jwe), ...extra }),
  })
}

describe('card capture in Vitest browser mode', () => {
  it('hands the page’s card JWE back decrypted, header exact, the typed card', async () => {
    await commands.startCardCapture()
    await pay()
    const sent = await commands.nextCapturedCard('**/api/payments', { typed: card })
    expect(sent.request).toBe('POST /capture-probe/api/payments')
    expect(sent.protectedHeader).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
    expect(sent.card).toMatchObject({ number: card.number, cvc: card.securityCode })
    await expect(commands.expectNoCardDigits([card.number])).resolves.toBeUndefined()
  })

  it('fails a page that sends the number in clear, naming the rule and not the card', async () => {
    await commands.startCardCapture()
    await pay({ display: card.number.replace(/(\d{4})(?=\d)/g, '$1 ') })
    const error = await commands.nextCapturedCard({ source: '/api/payments$' }).then(
      () => undefined,
      (e: Error) => e,
    )
    expect(error?.message).toMatch(/CARD_DIGITS_IN_CLEAR: POST \/capture-probe\/api\/payments: the body carried the card number in clear/)
    expect(error?.message).not.toContain(card.number.slice(-4))
  })

  it('gives the run sandbox’s ready-made shop and certificate', () => {
    const sandbox = testSandbox()
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(sandbox.certificatePem).toContain('BEGIN CERTIFICATE')
    expect(sandbox.readyMadeShop).toMatchObject({ shopId: expect.stringMatching(/^shop_/), storeId: expect.any(String) })
  })
})
