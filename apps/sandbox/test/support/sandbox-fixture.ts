import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServiceClient, type ServiceClient, type ServiceCredentials } from '@card-jwe/service-client'
import { encryptCard, importCertificate, toPaymentMethod, type CardInput } from 'card-jwe'
import { startSandbox, type RunningSandbox } from '@card-jwe/sandbox'
import type { PaymentRequest } from '@card-jwe/payment-validator'
import { startTestShop, type TestShop } from './shop-server.js'

export interface RegisteredShop {
  readonly sandbox: RunningSandbox
  readonly shop: TestShop
  readonly client: ServiceClient
  /** What the shop signs with: its id and the service_secret the sandbox pushed to it. */
  readonly credentials: ServiceCredentials
  readonly storeId: string
  readonly logs: string[]
  /** A payment request for a card, encrypted with the sandbox's certificate, amount and metadata set. */
  cardPayment(card: CardInput, extra?: Partial<PaymentRequest>): Promise<PaymentRequest>
  close(): Promise<void>
}

export const RETURN_URL = 'https://shop.example/checkout/return'

export function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'card-jwe-sandbox-'))
}

/**
 * A sandbox on a free port, a shop registered with it (ready-made store), and a client signing as
 * that shop; `now` is the sandbox's clock, for a test that moves it.
 */
export async function registeredShop(dataDir = freshDataDir(), options: { readonly now?: () => Date } = {}): Promise<RegisteredShop> {
  const logs: string[] = []
  const sandbox = await startSandbox({ dataDir, log: (line) => logs.push(line), ...(options.now ? { now: options.now } : {}) })
  const shop = await startTestShop()
  const registration = await createServiceClient({ baseUrl: sandbox.baseUrl }).register({
    shopUrl: shop.url,
    key: shop.key,
    secret: shop.secret,
    readyMadeStore: true,
  })
  const credentials = { shopId: registration.shopId, serviceSecret: shop.settings.get('service_secret')! }
  const client = createServiceClient({ baseUrl: sandbox.baseUrl, credentials })
  const certificate = await importCertificate(sandbox.certificatePem)
  let order = 1000
  return {
    sandbox,
    shop,
    client,
    credentials,
    storeId: registration.storeId!,
    logs,
    async cardPayment(card, extra = {}) {
      order++
      return {
        channel: 'web',
        returnUrl: RETURN_URL,
        amount: { currency: 'EUR', value: 2800 },
        reference: `order-${order}`,
        metadata: { shop_order_id: order },
        paymentMethod: toPaymentMethod(await encryptCard(card, certificate)),
        ...extra,
      }
    },
    async close() {
      await sandbox.close()
      await shop.close()
    },
  }
}
