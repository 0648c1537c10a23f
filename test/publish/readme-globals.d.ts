// What the README's examples take as given: the shop's own page elements, order store and request.
// Only names and types; the examples themselves are type-checked as written (tarballs.test.ts).
import type { Checkout } from '@card-jwe/checkout'
import type { PaymentRequest } from '@card-jwe/payment-validator'

declare global {
  /** The page's mounted checkout (the checkout README's page script). */
  const checkout: Checkout
  const processorCertificatePem: string
  const numberInput: HTMLInputElement
  const expiryInput: HTMLInputElement
  const securityCodeInput: HTMLInputElement
  const nameInput: HTMLInputElement
  /** One of the shopper's saved cards, from the service's `storedPaymentMethods`. */
  const savedCard: { id: string; brand: string; lastFour: string }
  const orderId: number
  /** The order a checkout page shows, as the shop rendered it into the page. */
  const order: { id: number; reference: string; amount: { currency: string; value: number } }
  function showErrors(issues: ReadonlyArray<{ field: string; rule: string }>): void
  const orders: { find(id: number): Promise<{ id: number; reference: string; amount: { currency: string; value: number } }> }
  function reply(status: number, body: unknown): void
  const forwardBody: PaymentRequest
  const shopUrl: string
  const key: string
  const secret: string
  const baseUrl: string
  const serviceSecret: string
  const lastCursor: number
  const shopId: string
  const storeId: string
  const attempts: { current(orderId: number): Promise<number> }
  function startShopUnderTest(options: {
    serviceBaseUrl: string
    certificatePem: string
    shopId: string
    serviceSecret: string
    storeId: string
  }): Promise<{ url: string; close(): Promise<void> }>
}
