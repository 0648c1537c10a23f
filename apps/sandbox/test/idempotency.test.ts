/**
 * Idempotency keys (docs/decisions.md, "Idempotency"): a retry under the same key gets the first
 * answer, never a second payment or a second capture; the client retries through an outage under
 * the caller's key or one it generated. Counted in the sandbox's own database.
 */
import Database from 'better-sqlite3'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { createServiceClient } from '@card-jwe/service-client'
import { CHALLENGE_ANSWER, startSandbox, type RunningSandbox } from '@card-jwe/sandbox'
import { registeredShop, type RegisteredShop } from './support/sandbox-fixture.js'
import { serviceError } from './support/service-error.js'
import { actionField, answerChallenge, runThreeDSMethod } from './support/browser-steps.js'
import { useThreadPoolHolds, within } from '../../../packages/sqlite-group-commit/test/support/thread-pool.js'

const holdThreadPool = useThreadPoolHolds()
const card = findTestCard({ brand: 'mastercard', threeDSecure: 'none', outcome: 'authorised' })
let fixture: RegisteredShop
let dataDir: string
beforeAll(async () => {
  fixture = await registeredShop()
  dataDir = fixture.sandbox.databasePath.replace(/\/sandbox\.sqlite$/, '')
})
afterAll(() => fixture.close())

function count(sql: string, ...args: unknown[]): number {
  const db = new Database(fixture.sandbox.databasePath, { readonly: true })
  try {
    return (db.prepare(sql).get(...args) as { n: number }).n
  } finally {
    db.close()
  }
}

describe('idempotency keys', () => {
  it('answers a repeated payment with the first answer, even with a freshly encrypted card', async () => {
    const first = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(card, { reference: 'idem-1' }), {
      idempotencyKey: 'order-idem-1-attempt-0',
    })
    const again = await fixture.client.createPayment(
      fixture.storeId,
      await fixture.cardPayment(card, { reference: 'idem-1', metadata: first.metadata as Record<string, number> }),
      {
        idempotencyKey: 'order-idem-1-attempt-0',
      },
    )
    expect(again).toEqual(first)
    expect(count("SELECT count(*) AS n FROM payments WHERE reference = 'idem-1'")).toBe(1)
    expect(fixture.logs.filter((l) => l === 'idempotent replay on payments')).toHaveLength(1)
  })

  it('refuses the key for a different payment, and a malformed key', async () => {
    await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(card, { reference: 'idem-2' }), {
      idempotencyKey: 'order-idem-2-attempt-0',
    })
    const other = await fixture.cardPayment(card, { reference: 'idem-2', amount: { currency: 'EUR', value: 1 } })
    expect(
      await serviceError(fixture.client.createPayment(fixture.storeId, other, { idempotencyKey: 'order-idem-2-attempt-0' })),
    ).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' })
    const raw = await fetch(`${fixture.sandbox.baseUrl}/shopplatform/processor/payments/XXXXXXXXXXXXXXXX/cancels`, {
      method: 'POST',
      headers: { 'idempotency-key': 'short' },
    })
    expect(raw.status).toBe(401) // signature first: the key is looked at only for a signed request
    await expect(fixture.client.cancel('XXXXXXXXXXXXXXXX', { idempotencyKey: 'bad key!' })).rejects.toThrow(
      'idempotencyKey: 8 to 64 characters of [A-Za-z0-9_-]',
    )
  })

  it('makes one payment of five concurrent requests under one key: the others answered with it, or 409 while it is made', async () => {
    const bodies = await Promise.all(
      Array.from({ length: 5 }, () => fixture.cardPayment(card, { reference: 'idem-3', metadata: { shop_order_id: 3 } })),
    )
    const answers = await Promise.allSettled(
      bodies.map((body) => fixture.client.createPayment(fixture.storeId, body, { idempotencyKey: 'order-idem-3-attempt-0' })),
    )
    const paid = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value.pspReference] : []))
    expect(new Set(paid).size).toBe(1)
    for (const refused of answers.flatMap((a) => (a.status === 'rejected' ? [a.reason] : [])))
      expect(refused).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' })
    expect(count("SELECT count(*) AS n FROM payments WHERE reference = 'idem-3'")).toBe(1)
  })

  const inUse =
    'refuses a payment under a key whose first request is still being made (409 IDEMPOTENCY_KEY_IN_USE), then answers with the first'
  it(inUse, async () => {
    const body = await fixture.cardPayment(card, { reference: 'idem-in-use', metadata: { shop_order_id: 9 } })
    const send = () => fixture.client.createPayment(fixture.storeId, body, { idempotencyKey: 'order-idem-in-use-attempt-0' })
    // libuv's pool held: the first request waits in its card's decryption, its key held.
    const pool = holdThreadPool(mkdtempSync(join(tmpdir(), 'sandbox-pool-')))
    const outcomes = [send(), send()].map((call) =>
      call.then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      ),
    )
    const first = await within(Promise.race(outcomes))
    expect(first).toMatchObject({ error: { status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' } })
    await pool.releaseAll()
    const [a, b] = await Promise.all(outcomes)
    const made = 'answer' in a! ? a.answer : 'answer' in b! ? b.answer : undefined
    expect(made).toMatchObject({ resultCode: 'Authorised' })
    expect(await send()).toEqual(made)
    expect(count("SELECT count(*) AS n FROM payments WHERE reference = 'idem-in-use'")).toBe(1)
  })

  it('applies a capture and a refund once however often they are retried', async () => {
    const paid = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(card, { reference: 'idem-4' }))
    const psp = paid.pspReference!
    const captures = await Promise.all(
      [1, 2, 3].map(() => fixture.client.capture(psp, { currency: 'EUR', value: 1000 }, { idempotencyKey: 'capture-idem-4-a' })),
    )
    expect(new Set(captures.map((c) => c.pspReference)).size).toBe(1)
    // A second, intended capture.
    await fixture.client.capture(psp, { currency: 'EUR', value: 1000 }, { idempotencyKey: 'capture-idem-4-b' })
    for (let i = 0; i < 3; i++) await fixture.client.refund(psp, { currency: 'EUR', value: 500 }, { idempotencyKey: 'refund-idem-4-a' })
    expect(count("SELECT count(*) AS n FROM modifications WHERE payment_psp_reference = ? AND kind = 'capture'", psp)).toBe(2)
    expect(count("SELECT count(*) AS n FROM modifications WHERE payment_psp_reference = ? AND kind = 'refund'", psp)).toBe(1)
    expect(count('SELECT captured + 0 AS n FROM payments WHERE psp_reference = ?', psp)).toBe(2000)
    expect(count('SELECT refunded + 0 AS n FROM payments WHERE psp_reference = ?', psp)).toBe(500)
  })

  it('answers payment details repeated under their key with the first answer, and refuses the key on other details', async () => {
    const challenged = findTestCard({ brand: 'visa', threeDSecure: 'challenge' })
    const first = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(challenged, { reference: 'idem-details' }))
    const fingerprint = { details: { threeDSResult: await runThreeDSMethod(actionField(first, 'token')) } }
    const step = await fixture.client.paymentDetails(fixture.storeId, fingerprint, { idempotencyKey: 'details-idem-5-step-1' })
    expect(step.resultCode).toBe('ChallengeShopper')
    // The answer lost and the call made again: the same step, not a refusal of a step already taken.
    expect(await fixture.client.paymentDetails(fixture.storeId, fingerprint, { idempotencyKey: 'details-idem-5-step-1' })).toEqual(step)

    const { threeDSResult } = await answerChallenge(actionField(step, 'token'), CHALLENGE_ANSWER)
    const answered = { details: { threeDSResult } }
    const final = await fixture.client.paymentDetails(fixture.storeId, answered, { idempotencyKey: 'details-idem-5-step-2' })
    expect(final.resultCode).toBe('Authorised')
    expect(await fixture.client.paymentDetails(fixture.storeId, answered, { idempotencyKey: 'details-idem-5-step-2' })).toEqual(final)
    // One key, one request: the first step's details under the second step's key are refused.
    expect(
      (await serviceError(fixture.client.paymentDetails(fixture.storeId, fingerprint, { idempotencyKey: 'details-idem-5-step-2' }))).code,
    ).toBe('IDEMPOTENCY_KEY_REUSED')
    // Under a new key the payment's own state answers.
    expect((await serviceError(fixture.client.paymentDetails(fixture.storeId, answered))).code).toBe('PAYMENT_ALREADY_FINAL')
    expect(count("SELECT count(*) AS n FROM events WHERE psp_reference = ? AND status = 'authorised'", first.pspReference)).toBe(1)
  })

  it('refuses a key the shop used on another endpoint, and runs nothing under it', async () => {
    const paid = await fixture.client.createPayment(
      fixture.storeId,
      await fixture.cardPayment(card, { reference: 'idem-other-endpoint' }),
      {
        idempotencyKey: 'order-idem-6-key',
      },
    )
    const psp = paid.pspReference!
    const capture = fixture.client.capture(psp, { currency: 'EUR', value: 1000 }, { idempotencyKey: 'order-idem-6-key' })
    expect((await serviceError(capture)).code).toBe('IDEMPOTENCY_KEY_REUSED')
    expect(count('SELECT count(*) AS n FROM modifications WHERE payment_psp_reference = ?', psp)).toBe(0)
    await fixture.client.capture(psp, { currency: 'EUR', value: 1000 }, { idempotencyKey: 'capture-idem-6' })
    const payment = fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(card, { reference: 'idem-other-endpoint-b' }), {
      idempotencyKey: 'capture-idem-6',
    })
    expect((await serviceError(payment)).code).toBe('IDEMPOTENCY_KEY_REUSED')
    expect(count("SELECT count(*) AS n FROM payments WHERE reference = 'idem-other-endpoint-b'")).toBe(0)
  })

  it('refuses a key on another endpoint while a payment under it is still being made; the payment is made', async () => {
    const paid = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(card, { reference: 'idem-race-other' }))
    const body = await fixture.cardPayment(card, { reference: 'idem-race' })
    // libuv's pool held: the payment waits in its card's decryption, its key held and its row not stored.
    const pool = holdThreadPool(mkdtempSync(join(tmpdir(), 'sandbox-pool-')))
    const payment = fixture.client.createPayment(fixture.storeId, body, { idempotencyKey: 'order-idem-race-key' })
    await new Promise((resolve) => setTimeout(resolve, 300))
    const capture = serviceError(
      fixture.client.capture(paid.pspReference!, { currency: 'EUR', value: 1000 }, { idempotencyKey: 'order-idem-race-key' }),
    )
    await pool.releaseAll()
    expect((await capture).code).toBe('IDEMPOTENCY_KEY_REUSED')
    expect((await payment).resultCode).toBe('Authorised')
    expect(count('SELECT count(*) AS n FROM modifications WHERE payment_psp_reference = ?', paid.pspReference)).toBe(0)
  })

  it("has the client retry payments through a service restart, under the caller's key or one it made, each paid once", async () => {
    const port = Number(new URL(fixture.sandbox.baseUrl).port)
    const keyed = await fixture.cardPayment(card, { reference: 'idem-5' })
    const unkeyed = await fixture.cardPayment(card, { reference: 'idem-6' })
    await fixture.sandbox.close()
    let restarted: RunningSandbox | undefined
    const restart = new Promise<void>((resolve) =>
      setTimeout(
        () =>
          void startSandbox({ dataDir, port, log: (line) => fixture.logs.push(line) }).then((s) => {
            restarted = s
            resolve()
          }),
        400,
      ),
    )
    const client = createServiceClient({
      baseUrl: fixture.sandbox.baseUrl,
      credentials: fixture.credentials,
      backoff: { initialMs: 300, maxMs: 1200 },
    })
    const [first, second] = await Promise.all([
      client.createPayment(fixture.storeId, keyed, { idempotencyKey: 'order-idem-5-attempt-0' }),
      client.createPayment(fixture.storeId, unkeyed),
    ])
    await restart
    expect([first.resultCode, second.resultCode]).toEqual(['Authorised', 'Authorised'])
    expect(count("SELECT count(*) AS n FROM payments WHERE reference = 'idem-5'")).toBe(1)
    expect(count("SELECT count(*) AS n FROM payments WHERE reference = 'idem-6'")).toBe(1)
    await restarted!.close()
    // The fixture's own close() then closes an already closed server, which is harmless.
    Object.assign(fixture.sandbox, { close: async () => {} })
  })
})
