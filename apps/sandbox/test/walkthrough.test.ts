/**
 * A shop's first day with the sandbox, as one run on loopback through the client: it registers,
 * takes a card payment without and with 3-D Secure, captures part of one, refunds it, and sees
 * every change through updated-payments. Each step is printed, so the run can be read.
 */
import { afterAll, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit'
import { CHALLENGE_ANSWER } from '@card-jwe/sandbox'
import { registeredShop, type RegisteredShop } from './support/sandbox-fixture.js'
import { actionField, answerChallenge, runThreeDSMethod } from './support/browser-steps.js'

let fixture: RegisteredShop | undefined
afterAll(() => fixture?.close())

it('registers, pays with and without 3-D Secure, captures part, refunds, and sees every change', async () => {
  const steps: string[] = []
  const step = (text: string) => steps.push(`${String(steps.length + 1).padStart(2)}. ${text}`)
  fixture = await registeredShop()
  const { client, storeId } = fixture
  step(`registered: store ${storeId}, service_secret pushed to the shop (${fixture.shop.calls.join('; ')})`)

  const plain = await client.createPayment(storeId, await fixture.cardPayment(findTestCard({ brand: 'mastercard', threeDSecure: 'none' })))
  step(`card without 3-D Secure: ${plain.resultCode}, pspReference ${plain.pspReference}`)

  const threeDS = findTestCard({ brand: 'visa', threeDSecure: 'challenge' })
  const first = await client.createPayment(storeId, await fixture.cardPayment(threeDS, { amount: { currency: 'EUR', value: 4999 } }))
  step(`card with 3-D Secure: ${first.resultCode}, action ${String(first.action?.type)}/${String(first.action?.subtype)}`)
  const second = await client.paymentDetails(storeId, { details: { threeDSResult: await runThreeDSMethod(actionField(first, 'token')) } })
  step(`after the 3DS Method: ${second.resultCode}, action ${String(second.action?.type)}/${String(second.action?.subtype)}`)
  const { threeDSResult } = await answerChallenge(actionField(second, 'token'), CHALLENGE_ANSWER)
  const final = await client.paymentDetails(storeId, { details: { threeDSResult } })
  step(
    `challenge answered: ${final.resultCode}, confirmed ${final.amount?.value} ${final.amount?.currency}, ` +
      `pspReference ${final.pspReference}`,
  )
  expect(final).toMatchObject({ resultCode: 'Authorised', pspReference: first.pspReference, amount: { currency: 'EUR', value: 4999 } })

  const captured = await client.capture(final.pspReference!, { currency: 'EUR', value: 3000 })
  step(`captured 3000 of 4999: modification ${captured.pspReference}, ${captured.status}`)
  const refunded = await client.refund(final.pspReference!, { currency: 'EUR', value: 3000 })
  step(`refunded 3000: modification ${refunded.pspReference}, ${refunded.status}`)

  const changes = await client.updatedPayments({ after: 0 })
  for (const change of changes.payments) {
    const amounts = `captured ${change.capturedAmount.value}, refunded ${change.refundedAmount.value}`
    const metadata = JSON.stringify(change.metadata)
    step(`updated-payments #${change.sequence}: ${change.pspReference} ${change.status} (${amounts}), metadata ${metadata}`)
  }
  expect(changes.payments.map((c) => [c.pspReference, c.status])).toEqual([
    [plain.pspReference, 'authorised'],
    [first.pspReference, 'identify_shopper'],
    [first.pspReference, 'challenge_shopper'],
    [first.pspReference, 'authorised'],
    [first.pspReference, 'partially_captured'],
    [first.pspReference, 'partially_refunded'],
  ])
  console.info(`sandbox walkthrough:\n${steps.join('\n')}`)
})
