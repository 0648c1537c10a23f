/**
 * Vitest global set-up of checkout:browser: one test shop and sandbox per browser instance, its
 * address and the test cards provided to the tests (`inject('checkoutShop')`).
 */
import { findTestCard } from '@card-jwe/testkit/test-cards'
import type { TestProject } from 'vitest/node'
import { startTestShop } from './test-shop.ts'

/** A card as the shopper types it. */
export interface TypedCard {
  readonly number: string
  readonly expiry: string
  readonly securityCode: string
}

const typed = (filter: Parameters<typeof findTestCard>[0]): TypedCard => {
  const card = findTestCard(filter)
  return { number: card.number, expiry: `${card.expiryMonth}/${card.expiryYear.slice(2)}`, securityCode: card.securityCode }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shop = await startTestShop()
  project.provide('checkoutShop', {
    url: shop.url,
    cards: {
      frictionless: typed({ brand: 'visa', threeDSecure: 'frictionless', outcome: 'authorised' }),
      challenge: typed({ brand: 'visa', threeDSecure: 'challenge', outcome: 'authorised' }),
      refused: typed({ brand: 'visa', outcome: 'refused' }),
    },
  })
  return () => shop.close()
}

declare module 'vitest' {
  interface ProvidedContext {
    checkoutShop: { url: string; cards: Record<'frictionless' | 'challenge' | 'refused', TypedCard> }
  }
}
