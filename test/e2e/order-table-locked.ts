/**
 * A payment that lands while another process holds the demo's order table (a long report, a
 * migration): the back end's onOrderChange fails and the change waits in its outbox, which the admin
 * page shows as a problem. Paid from Node, as the page would post it.
 */
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import type { DemoStack } from './demo-stack.js'

async function post(stack: DemoStack, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${stack.shop.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return (await response.json()) as Record<string, unknown>
}

/** A new order paid by card while its table is locked: the order, and what the payment answered. */
export async function paidWhileOrderTableLocked(
  stack: DemoStack,
): Promise<{ order: { id: number; reference: string }; answer: Record<string, unknown> }> {
  const order = (await post(stack, '/api/orders', { items: [{ sku: 'tea-sencha', quantity: 1 }] })) as {
    id: number
    reference: string
    amount: { currency: string; value: number }
  }
  const orderTable = new Database(join(stack.shopDataDir, 'shop.sqlite'))
  // Its writes wait (busy_timeout), then fail: the change stays in the back end's outbox.
  orderTable.exec('BEGIN EXCLUSIVE')
  try {
    const certificate = await importCertificate(stack.sandbox.certificatePem)
    const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
    const answer = await post(stack, '/api/payments', {
      orderId: order.id,
      reference: order.reference,
      amount: order.amount,
      paymentMethod: toPaymentMethod(await encryptCard(card, certificate)),
    })
    return { order, answer }
  } finally {
    orderTable.exec('ROLLBACK')
    orderTable.close()
  }
}
