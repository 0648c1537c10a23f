import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createServiceClient } from '@card-jwe/service-client'
import type { PaymentRequest } from '@card-jwe/payment-validator'
import { paymentServiceFromClient } from '../src/index.js'

let server: Server | undefined
afterEach(async () => {
  const open = server
  server = undefined
  if (open) await new Promise<void>((resolve) => open.close(() => resolve()))
})

/**
 * A gateway in front of the service on loopback: the first `lost` requests are dropped once read (the
 * service may have acted; no answer comes back), every later one gets a 404 of its own, no service envelope.
 */
async function gatewayThatLoses(lost: number): Promise<string> {
  let seen = 0
  server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      if (++seen <= lost) request.socket.destroy()
      else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    })
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
}

const payment = { amount: { currency: 'EUR', value: 2800 }, reference: 'order-1' } as unknown as PaymentRequest

async function failureOfPayment(baseUrl: string) {
  const client = createServiceClient({
    baseUrl,
    credentials: { shopId: 'shop', serviceSecret: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0' },
    deadlineMs: 5_000,
    backoff: { initialMs: 10, maxMs: 20 },
  })
  return paymentServiceFromClient(client)
    .createPayment('store-1', payment, { idempotencyKey: 'payment-key-1' })
    .then(
      () => undefined,
      (error: unknown) => error as { kind: string; code: string },
    )
}

describe('a payment call refused by a gateway', () => {
  it('after a try that got no answer: its outcome stays open (that try may have charged)', async () => {
    expect(await failureOfPayment(await gatewayThatLoses(1))).toMatchObject({ kind: 'unknown', code: 'HTTP_ERROR' })
  })

  it('at its first try: refused, nothing was done', async () => {
    expect(await failureOfPayment(await gatewayThatLoses(0))).toMatchObject({ kind: 'refused', code: 'HTTP_ERROR' })
  })
})
