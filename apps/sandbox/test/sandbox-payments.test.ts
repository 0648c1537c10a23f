/**
 * GET /sandbox/payments, the read-only list a shop's tests count payments with, and the redirect
 * pages as the README documents them: the bank page at the action's URL, Approve and Cancel posted
 * to it, the 303 back to the returnUrl with redirectResult, and what payment-details then answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient } from '@card-jwe/service-client'
import { findTestCard } from '@card-jwe/testkit'
import { SANDBOX_PAYMENTS_MAX_LIMIT, type SandboxPaymentsAnswer } from '@card-jwe/sandbox'
import { registeredShop, RETURN_URL, type RegisteredShop } from './support/sandbox-fixture.js'
import { actionField } from './support/browser-steps.js'

let fixture: RegisteredShop
beforeAll(async () => {
  fixture = await registeredShop()
})
afterAll(() => fixture.close())

const visa = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
const refusedCard = findTestCard({ outcome: 'refused', brand: 'mastercard' })
const eur = (value: number) => ({ currency: 'EUR', value })

async function listed(query = ''): Promise<SandboxPaymentsAnswer> {
  const answer = await fetch(`${fixture.sandbox.baseUrl}/sandbox/payments${query}`)
  expect(answer.status, await answer.clone().text()).toBe(200)
  expect(answer.headers.get('content-type')).toBe('application/json')
  return (await answer.json()) as SandboxPaymentsAnswer
}

/** An iDEAL payment started, its bank page read, a decision posted; the URL the page sent the shopper back to. */
async function redirectPayment(decision: 'approve' | 'cancel') {
  const request = { ...(await fixture.cardPayment(visa)), paymentMethod: { type: 'ideal' } }
  const started = await fixture.client.createPayment(fixture.storeId, request)
  const url = actionField(started, 'url')
  expect(url).toMatch(new RegExp(`^${fixture.sandbox.baseUrl}/redirect/[A-Za-z0-9_-]+$`))
  const page = await fetch(url)
  expect(page.status).toBe(200)
  const html = await page.text()
  expect(html).toContain('Sandbox bank (ideal)')
  expect(html).toContain('Pay 2800 minor units of EUR?')
  const path = new URL(url).pathname
  expect(html).toContain(`action="${path}/approve"`)
  expect(html).toContain(`action="${path}/cancel"`)
  const back = await fetch(`${url}/${decision}`, { method: 'POST', redirect: 'manual' })
  expect(back.status).toBe(303)
  const location = new URL(back.headers.get('location')!)
  return { started, url, location, reference: request.reference }
}

describe('the redirect pages (bank page of a redirect method)', () => {
  it.each([
    ['approve', 'Authorised', undefined, 'authorised'],
    ['cancel', 'Cancelled', 'Cancelled by shopper', 'refused'],
  ] as const)('%s: back to the returnUrl with redirectResult; payment-details answers %s', async (decision, resultCode, reason, status) => {
    const { started, url, location, reference } = await redirectPayment(decision)
    expect(`${location.origin}${location.pathname}`).toBe(RETURN_URL)
    const redirectResult = location.searchParams.get('redirectResult')!
    expect(redirectResult).toMatch(/^[A-Za-z0-9_-]+$/)
    // A second click before the shop has asked: the first decision stands, the same way back.
    const again = await fetch(`${url}/${decision === 'approve' ? 'cancel' : 'approve'}`, { method: 'POST', redirect: 'manual' })
    expect(new URL(again.headers.get('location')!).searchParams.get('redirectResult')).toBe(redirectResult)
    // Until payment-details, the sandbox lists the payment as waiting for the shopper.
    expect((await listed(`?reference=${reference}`)).payments[0]).toMatchObject({
      status: 'redirect_shopper',
      resultCode: 'RedirectShopper',
    })

    const final = await fixture.client.paymentDetails(fixture.storeId, { details: { redirectResult } })
    expect(final).toMatchObject({ resultCode, pspReference: started.pspReference })
    if (reason) expect(final.refusalReason).toBe(reason)
    expect((await listed(`?reference=${reference}`)).payments).toMatchObject([{ status, resultCode, paymentMethod: { type: 'ideal' } }])
    // Decided and told: the page is gone.
    expect((await fetch(url)).status).toBe(404)
    expect((await fetch(`${url}/approve`, { method: 'POST', redirect: 'manual' })).status).toBe(404)
  })

  it('answers 404 to a transaction it does not know and to a decision other than approve or cancel', async () => {
    expect((await fetch(`${fixture.sandbox.baseUrl}/redirect/nosuchtransaction`)).status).toBe(404)
    const { url } = await redirectPayment('approve')
    expect((await fetch(`${url}/decline`, { method: 'POST', redirect: 'manual' })).status).toBe(404)
  })
})

describe('GET /sandbox/payments', () => {
  it('lists the payments it holds, newest first, filtered, with their modifications; counted in full beyond the limit', async () => {
    const paid = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(visa))
    await fixture.client.capture(paid.pspReference!, eur(1000))
    await fixture.client.refund(paid.pspReference!, eur(400))
    const refused = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(refusedCard))
    const cancelled = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(visa))
    await fixture.client.cancel(cancelled.pspReference!)

    const all = await listed(`?shopId=${fixture.credentials.shopId}`)
    expect(all.count).toBe(all.payments.length)
    expect(all.payments.slice(0, 3).map((p) => p.pspReference)).toEqual([cancelled.pspReference, refused.pspReference, paid.pspReference])
    expect(all.payments[2]).toEqual({
      pspReference: paid.pspReference,
      shopId: fixture.credentials.shopId,
      storeId: fixture.storeId,
      reference: expect.stringMatching(/^order-\d+$/),
      status: 'partially_refunded',
      resultCode: 'Authorised',
      refusalReason: null,
      amount: eur(2800),
      capturedValue: 1000,
      refundedValue: 400,
      paymentMethod: { type: 'scheme', brand: 'visa', lastFour: visa.number.slice(-4) },
      metadata: { shop_order_id: expect.any(Number) },
      modifications: [
        { pspReference: expect.stringMatching(/^[0-9A-Z]{16}$/), kind: 'capture', amount: eur(1000), createdAt: expect.any(String) },
        { pspReference: expect.stringMatching(/^[0-9A-Z]{16}$/), kind: 'refund', amount: eur(400), createdAt: expect.any(String) },
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    expect(all.payments[1]).toMatchObject({ status: 'refused', resultCode: 'Refused', refusalReason: 'Not enough balance' })
    expect(all.payments[0]!.modifications).toEqual([{ pspReference: expect.any(String), kind: 'cancel', createdAt: expect.any(String) }])
    // No card number, no security code: the brand and last four digits only.
    expect(JSON.stringify(all)).not.toContain(visa.number)

    // "Charged once": the one authorised payment of an order reference.
    const reference = all.payments[2]!.reference!
    expect((await listed(`?reference=${reference}&resultCode=Authorised`)).count).toBe(1)
    expect((await listed(`?reference=${reference}&resultCode=Refused`)).count).toBe(0)
    expect((await listed(`?status=cancelled&shopId=${fixture.credentials.shopId}`)).payments.map((p) => p.pspReference)).toContain(
      cancelled.pspReference,
    )
    const limited = await listed(`?shopId=${fixture.credentials.shopId}&limit=2`)
    expect(limited).toEqual({ count: all.count, payments: all.payments.slice(0, 2) })
  })

  it("keeps shops apart by shopId and storeId; another shop's payments are not in this shop's list", async () => {
    const other = fixture.sandbox.createReadyMadeShop()
    const client = createServiceClient({ baseUrl: fixture.sandbox.baseUrl, credentials: other })
    const theirs = await client.createPayment(other.storeId, await fixture.cardPayment(visa))
    const mine = await listed(`?shopId=${fixture.credentials.shopId}`)
    expect(mine.payments.map((p) => p.pspReference)).not.toContain(theirs.pspReference)
    expect(await listed(`?shopId=${other.shopId}`)).toMatchObject({ count: 1, payments: [{ pspReference: theirs.pspReference }] })
    expect((await listed(`?storeId=${other.storeId}`)).count).toBe(1)
    expect((await listed('?shopId=nosuchshop')).count).toBe(0)
  })

  it('refuses an unknown or repeated filter, a status or resultCode it never gives, a limit out of range, by name; read-only', async () => {
    const refusal = async (query: string) => {
      const answer = await fetch(`${fixture.sandbox.baseUrl}/sandbox/payments${query}`)
      return { status: answer.status, body: (await answer.json()) as { errorCode: string; message: string } }
    }
    expect(await refusal('?referense=order-1')).toMatchObject({
      status: 422,
      body: { errorCode: 'INVALID_REQUEST', message: 'query: referense: not a filter' },
    })
    // A name is the caller's text: a card number as one is not repeated.
    expect((await refusal('?5555444433331111=1')).body.message).toBe('query: [key]: not a filter')
    expect((await refusal('?reference=a&reference=b')).body.message).toMatch(/^query: reference: /)
    for (const limit of ['0', String(SANDBOX_PAYMENTS_MAX_LIMIT + 1), 'ten', '-1'])
      expect((await refusal(`?limit=${limit}`)).body.message, limit).toMatch(/^query: limit: /)
    // A misspelt value would count nothing, and a "charged at most once" check would pass on it.
    expect(await refusal('?status=authorized')).toMatchObject({
      status: 422,
      body: { message: expect.stringMatching(/^query: status: one of identify_shopper, .*, authorised, .*refused$/) },
    })
    expect((await refusal('?resultCode=authorised')).body.message).toBe(
      'query: resultCode: one of Authorised, Refused, Cancelled, RedirectShopper, IdentifyShopper, ChallengeShopper',
    )
    const posted = await fetch(`${fixture.sandbox.baseUrl}/sandbox/payments`, { method: 'POST' })
    expect(posted.status).toBe(405)
  })
})
