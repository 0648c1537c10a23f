import type { ServicePaymentRequest } from '@card-jwe/payment-validator'
import { createServiceClient, type ServiceClientOptions } from '../../src/index.js'

export const credentials = { shopId: 'shop_test', serviceSecret: 'a-secret-of-the-test-shop' }
export const STORE = 'store_1'
export const PSP = 'PSPREF0000000001'

/** What the card data looks like in a request body; no error message may ever contain it. */
export const CARD_MARKER = 'eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIiwidmVyc2lvbiI6IjEifQ'

export const payment = {
  amount: { currency: 'EUR', value: 2800 },
  reference: 'REF-IN-BODY-7',
  returnUrl: 'https://shop.example/return',
  channel: 'web',
  paymentMethod: { type: 'scheme', jwe: `${CARD_MARKER}.a.b.c.d` },
  metadata: { shop_order_id: 42 },
} as unknown as ServicePaymentRequest

export const authorised = { resultCode: 'Authorised', pspReference: PSP }

/**
 * A client with short times and waits it records instead of sleeping (the deadline still counts
 * each wait as asked): 20, 40, 80, 80... ms with `random` fixed at 1 (no jitter).
 */
export function fastClient(baseUrl: string, overrides: Partial<ServiceClientOptions> = {}) {
  const waits: number[] = []
  const client = createServiceClient({
    baseUrl,
    credentials,
    deadlineMs: 2_000,
    attemptTimeoutMs: 300,
    backoff: { initialMs: 20, maxMs: 80 },
    random: () => 1,
    sleep: async (ms) => void waits.push(ms),
    ...overrides,
  })
  return { client, waits }
}

/** The rejection of a promise that must reject. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected the call to fail')
}
