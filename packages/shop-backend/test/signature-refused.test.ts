import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { approveAtBank } from './support/bank-page.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'

// A shop whose stored values the service does not know (a sandbox on a new data folder, another
// shop's secret) is refused at every call: the log must say what that means, not only the code.

let world: World
const shops: TestShop[] = []
beforeAll(async () => {
  world = await startWorld()
})
afterEach(async () => {
  while (shops.length > 0) await shops.pop()!.close()
})
afterAll(() => world.close())

/** A secret the service never gave the ready-made shop. */
const UNKNOWN_SECRET = 'a'.repeat(64)

/** Connects `s` to the ready-made shop's id and store with {@link UNKNOWN_SECRET}. */
async function connectUnknownSecret(s: TestShop): Promise<void> {
  const { shopId, storeId } = world.sandbox.readyMadeShop
  await s.backend.connect({ shopId, storeId, serviceSecret: UNKNOWN_SECRET })
}

/** A shop on the ready-made shop's id and store with a secret the service never gave it. */
async function shopWithUnknownSecret(lines: string[]) {
  const s = await startShop(world, { connect: false, log: (line) => lines.push(line) })
  shops.push(s)
  await connectUnknownSecret(s)
  return s
}

const saysUnknownShop = /SIGNATURE_INVALID: the service knows no shop with this ledger's shop id and service secret/

it("says in the poller's log that the service knows no shop with the ledger's values", async () => {
  const lines: string[] = []
  const s = await shopWithUnknownSecret(lines)
  expect(await s.backend.poller.pollNow()).toMatchObject({ failed: 'SIGNATURE_INVALID' })
  expect(lines.filter((line) => line.includes('poll failed'))).toEqual([expect.stringMatching(saysUnknownShop)])
})

it('says with a refused payment that the service knows no shop with those values; the page hears SERVICE_REFUSED', async () => {
  const lines: string[] = []
  const s = await shopWithUnknownSecret(lines)
  const order = s.createOrder()
  const refused = await s.post('/api/payments', await s.cardSubmission(order))
  expect(refused).toMatchObject({ status: 502, body: { error: 'SERVICE_REFUSED' } })
  expect(lines.filter((line) => line.includes(`order ${order.id}:`))).toEqual([
    expect.stringMatching(/the payment service refused the shop's signature \(SIGNATURE_INVALID\); the service knows no shop/),
  ])
  expect(world.sandboxPaymentsFor(order.reference, 'Authorised')).toBe(0)
})

it("says it with a shopper's return from the bank refused for the shop's signature", async () => {
  const lines: string[] = []
  const s = await startShop(world, { log: (line) => lines.push(line) })
  shops.push(s)
  const order = s.createOrder()
  const started = await s.post('/api/payments', s.idealSubmission(order))
  const redirectResult = await approveAtBank((started.body.action as { url: string }).url)
  await connectUnknownSecret(s)
  const returned = await s.post('/api/payment-details', { orderId: order.id, details: { redirectResult } })
  expect(returned).toMatchObject({ status: 502, body: { error: 'SERVICE_REFUSED' } })
  expect(lines.filter((line) => line.includes(`order ${order.id}:`))).toEqual([
    expect.stringMatching(/the payment service refused the shop's signature \(SIGNATURE_INVALID\); the service knows no shop/),
  ])
})

it("says it with a capture the service refused for the shop's signature: in the log and in the merchant's error", async () => {
  const lines: string[] = []
  const s = await startShop(world, { log: (line) => lines.push(line) })
  shops.push(s)
  const order = s.createOrder()
  expect((await s.post('/api/payments', await s.cardSubmission(order))).body).toEqual({ resultCode: 'Authorised' })
  await connectUnknownSecret(s)
  const refused = await s.backend.capture(order.id).then(
    () => undefined,
    (error: unknown) => error as Error,
  )
  expect(refused).toMatchObject({ code: 'MODIFICATION_REFUSED', details: { serviceCode: 'SIGNATURE_INVALID' } })
  expect(refused?.message).toMatch(saysUnknownShop)
  expect(`${refused?.message} ${JSON.stringify(refused)} ${lines.join('\n')}`).not.toContain(UNKNOWN_SECRET)
  expect(lines.filter((line) => line.includes(`order ${order.id}:`))).toEqual([
    expect.stringMatching(/the payment service refused the shop's signature \(SIGNATURE_INVALID\); the service knows no shop/),
  ])
})

it('warns in readiness while the service refuses the stored values, on every instance, and passes once a poll is taken', async () => {
  const lines: string[] = []
  const s = await shopWithUnknownSecret(lines)
  const other = await startShop(world, { connect: false, storePath: s.storePath, secretKey: s.secretKey })
  shops.push(other)
  expect((await s.backend.readiness()).checks.registration).toEqual({ status: 'pass' })
  await s.backend.poller.pollNow()
  for (const instance of [s, other])
    expect((await instance.backend.readiness()).checks.registration).toEqual({
      status: 'warn',
      code: 'SERVICE_REFUSES_SHOP',
      serviceCode: 'SIGNATURE_INVALID',
    })
  const { shopId, storeId, serviceSecret } = world.sandbox.readyMadeShop
  await s.backend.connect({ shopId, storeId, serviceSecret })
  expect(await s.backend.poller.pollNow()).not.toHaveProperty('failed')
  expect((await other.backend.readiness()).checks.registration).toEqual({ status: 'pass' })
})
