/**
 * A shopper's steps done without a browser through the package's own helper, as a shop's Node test
 * does them: the 3DS Method, the challenge approved or refused, and the bank's page approved or left.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit'
import { completeShopperStep, type ShopperAction, ShopperStepError } from '@card-jwe/sandbox'
import { registeredShop, type RegisteredShop } from './support/sandbox-fixture.js'

let fixture: RegisteredShop
beforeAll(async () => {
  fixture = await registeredShop()
})
afterAll(() => fixture.close())

const actionOf = (answer: { action?: unknown }) => answer.action as ShopperAction

it.each([
  ['approve', 'Authorised'],
  ['refuse', 'Refused'],
] as const)('a challenged card, its 3DS Method run and the challenge answered to %s: %s', async (choice, resultCode) => {
  const { client, storeId } = fixture
  const started = await client.createPayment(storeId, await fixture.cardPayment(findTestCard({ brand: 'visa', threeDSecure: 'challenge' })))
  expect(started.action).toMatchObject({ type: 'threeDS2', subtype: 'fingerprint' })
  const challenged = await client.paymentDetails(storeId, await completeShopperStep(actionOf(started)))
  expect(challenged.action).toMatchObject({ type: 'threeDS2', subtype: 'challenge' })
  const step = await completeShopperStep(actionOf(challenged), choice)
  expect((await client.paymentDetails(storeId, step)).resultCode).toBe(resultCode)
  // The step is over: done again, the sandbox's page says so by a code a test can branch on, and nothing is sent on.
  const again = completeShopperStep(actionOf(challenged), choice)
  await expect(again).rejects.toBeInstanceOf(ShopperStepError)
  await expect(again).rejects.toMatchObject({ code: 'STEP_NOT_OPEN', status: expect.toSatisfy((s: number) => s >= 400 && s < 500) })
  await expect(again).rejects.toThrow(/challenge page answered 4\d\d: is this step still open\?/)
})

it.each([
  ['approve', 'Authorised'],
  ['refuse', 'Cancelled'],
] as const)("iDEAL, the bank's page answered to %s: %s", async (choice, resultCode) => {
  const { client, storeId } = fixture
  const request = {
    ...(await fixture.cardPayment(findTestCard({ brand: 'visa', threeDSecure: 'none' }))),
    paymentMethod: { type: 'ideal' },
  }
  const started = await client.createPayment(storeId, request)
  expect(started.action).toMatchObject({ type: 'redirect' })
  expect((await client.paymentDetails(storeId, await completeShopperStep(actionOf(started), choice))).resultCode).toBe(resultCode)
  // The bank's page already left: done again, the step is not open.
  await expect(completeShopperStep(actionOf(started), choice)).rejects.toMatchObject({
    code: 'STEP_NOT_OPEN',
    status: expect.toSatisfy((s: number) => s >= 400 && s < 500),
  })
})
