/**
 * The page and the shop backend together, as far as they go without a service: in real Chromium
 * the page encrypts a test card and collects browser data; the submission crosses as JSON; the
 * backend checks it against its order record, completes the browser data and builds the body it
 * would forward. The reference decryptor then proves the forwarded body carries the card.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { encryptCard, importCertificate, toPaymentMethod, type EncryptionCertificate } from 'card-jwe'
import { collectBrowserInfo } from '@card-jwe/browser-info'
import { completeBrowserInfo } from '@card-jwe/browser-info/server'
import {
  buildPaymentRequest,
  checkSubmission,
  parseJsonBody,
  PaymentRequestSchema,
  PaymentSubmissionSchema,
  type OrderRecord,
} from '@card-jwe/payment-validator'
import { createCardDecryptor } from '@card-jwe/testkit/decryptor'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import type {} from '@card-jwe/testkit/vitest-global-setup'

const { valid } = inject('cardJweTestCertificates')
const order: OrderRecord = { id: 4711, reference: 'order-4711', amount: { currency: 'EUR', value: 2800 } }
const card = findTestCard({ brand: 'mastercard', threeDSecure: 'challenge' })
let certificate: EncryptionCertificate

beforeAll(async () => {
  certificate = await importCertificate(valid.certificatePem, { fingerprint: valid.fingerprint })
})

/** The page's side: what the shop's checkout script sends its backend at submit. */
async function pageSubmission(overrides: Record<string, unknown> = {}): Promise<string> {
  const jwe = await encryptCard(
    {
      number: card.number,
      expiry: `${card.expiryMonth}/${card.expiryYear.slice(2)}`,
      securityCode: card.securityCode,
      holderName: 'A. Shopper',
    },
    certificate,
  )
  return JSON.stringify({
    orderId: order.id,
    reference: order.reference,
    amount: { currency: 'EUR', value: 2800 },
    paymentMethod: toPaymentMethod(jwe),
    browserInfo: collectBrowserInfo(),
    ...overrides,
  })
}

describe('page to forwardable payment body', () => {
  it('builds the body from the order record, the encrypted card and the browser data', async () => {
    const wire = await pageSubmission()

    // The backend's side.
    const parsed = parseJsonBody(wire, PaymentSubmissionSchema)
    expect(parsed.ok).toBe(true)
    const checked = checkSubmission(parsed.ok ? parsed.value : null, order)
    expect(checked.ok).toBe(true)
    if (!checked.ok) return
    const { browserInfo, shopperIP } = completeBrowserInfo(checked.submission.browserInfo!, {
      headers: { accept: 'text/html,application/xhtml+xml', 'user-agent': navigator.userAgent },
      ip: '203.0.113.7',
    })
    const body = buildPaymentRequest({
      order,
      submission: checked.submission,
      config: { returnUrl: (o) => `https://shop.example/checkout/return?orderId=${o.id}` },
      browserInfo,
      ...(shopperIP ? { shopperIP } : {}),
    })

    expect(PaymentRequestSchema.parse(body)).toEqual(body)
    expect(body).toMatchObject({
      channel: 'web',
      amount: { currency: 'EUR', value: 2800 },
      reference: 'order-4711',
      metadata: { shop_order_id: 4711 },
      returnUrl: 'https://shop.example/checkout/return?orderId=4711',
      shopperIP: '203.0.113.7',
      browserInfo: {
        acceptHeader: 'text/html,application/xhtml+xml',
        userAgent: navigator.userAgent,
        screenWidth: screen.width,
        javaScriptEnabled: true,
      },
    })
    // The card crosses only as the JWE: no digit of it anywhere else in the body.
    const { paymentMethod, ...rest } = body
    expect(JSON.stringify(rest)).not.toContain(card.number.slice(0, 6))

    const decrypted = await (await createCardDecryptor(valid.privateKeyPem)).decrypt((paymentMethod as { jwe: string }).jwe)
    expect(decrypted.card).toMatchObject({
      number: card.number,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      cvc: card.securityCode,
      holderName: 'A. Shopper',
    })
  })

  it('stops a page that lowers the amount before anything is forwarded', async () => {
    const wire = await pageSubmission({ amount: { currency: 'EUR', value: 28 } })
    const parsed = parseJsonBody(wire, PaymentSubmissionSchema)
    const checked = checkSubmission(parsed.ok ? parsed.value : null, order)
    expect(checked).toEqual({
      ok: false,
      problems: [{ kind: 'mismatch', field: 'amount.value', rule: "must equal the order's amount.value", expected: 2800 }],
    })
  })
})
