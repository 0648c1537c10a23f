/**
 * Merchant set-up over real HTTP (spec: "What the service does" rule 4, "Endpoints" rules 3 and 4,
 * "Onboarding"): email verification, backoffice user, contractors, stores, onboarding, payment
 * methods; every refusal with its stable code. The clock is the sandbox's and the client's own, so
 * expiry is tested without waiting. Everything compared with it comes from it too: the sandbox's
 * certificate, the test card's expiry, the certificate check and `generationtime` in card-jwe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit'
import { createServiceClient, type ServiceClient } from '@card-jwe/service-client'
import { startSandbox, type RunningSandbox } from '@card-jwe/sandbox'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import type { CreateStoreRequest, PaymentRequest } from '@card-jwe/payment-validator'
import { freshDataDir, RETURN_URL } from './support/sandbox-fixture.js'
import { serviceError } from './support/service-error.js'
import { startTestShop, type TestShop } from './support/shop-server.js'

const MINUTE = 60_000
let clock = new Date('2026-11-21T10:00:00Z')
const now = () => clock
let sandbox: RunningSandbox
const logs: string[] = []
const shops: TestShop[] = []

async function newShop(): Promise<{ client: ServiceClient; shop: TestShop }> {
  const shop = await startTestShop()
  shops.push(shop)
  const { shopId } = await createServiceClient({ baseUrl: sandbox.baseUrl, now }).register({
    shopUrl: shop.url,
    key: shop.key,
    secret: shop.secret,
  })
  return {
    shop,
    client: createServiceClient({
      baseUrl: sandbox.baseUrl,
      now,
      credentials: { shopId, serviceSecret: shop.settings.get('service_secret')! },
    }),
  }
}

async function latestCode(email: string): Promise<string> {
  const inbox = (await (await fetch(`${sandbox.baseUrl}/sandbox/inbox?email=${encodeURIComponent(email)}`)).json()) as {
    messages: Array<{ code: string; text: string }>
  }
  expect(inbox.messages[0]!.text).toContain(inbox.messages[0]!.code)
  return inbox.messages[0]!.code
}

/** Any six digits but the given code. */
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

async function connectAccount(client: ServiceClient, email: string): Promise<void> {
  await client.sendVerificationEmail(email)
  await client.connectBackofficeUser({ email, code: await latestCode(email) })
}

function storeBody(
  overrides: { contractorName?: string; shopperStatement?: string; country?: string; industryCode?: string } = {},
): CreateStoreRequest {
  return {
    contractor: {
      type: 'organization',
      name: overrides.contractorName ?? 'Example Tea B.V.',
      owner: { firstName: 'Test', lastName: 'Owner' },
      country: overrides.country ?? 'NL',
    },
    store: {
      label: 'Tea shop online',
      shopperStatement: overrides.shopperStatement ?? 'EXAMPLE TEA',
      industryCode: overrides.industryCode ?? '5499',
      phone: '+31 20 123 4567',
      currency: 'EUR',
      address: {
        country: 'NL',
        city: 'Amsterdam',
        stateOrProvince: '',
        line1: 'Teststraat 1',
        line2: '',
        line3: '',
        postalCode: '1011 AA',
      },
    },
  }
}

/** Submits the sandbox's identity page the way its form does; answers status and Location. */
async function submitIdentity(
  uri: string,
  fields: Record<string, string>,
): Promise<{ status: number; location: string | null; html: string }> {
  const response = await fetch(uri, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' })
  return { status: response.status, location: response.headers.get('location'), html: await response.text() }
}
const IDENTITY = { birthDate: '1980-01-01', documentNumber: 'SPECI2014', registrationNumber: '12345678', iban: 'NL91ABNA0417164300' }

async function cardPayment(storeId: string, client: ServiceClient, method?: PaymentRequest['paymentMethod']) {
  const card = findTestCard({ brand: 'mastercard', threeDSecure: 'none', outcome: 'authorised' }, { now })
  const certificate = await importCertificate(sandbox.certificatePem, { now })
  const paymentMethod = method ?? toPaymentMethod(await encryptCard(card, certificate, { now }))
  return client.createPayment(storeId, {
    channel: 'web',
    returnUrl: RETURN_URL,
    amount: { currency: 'EUR', value: 1500 },
    reference: 'setup-1',
    metadata: { shop_order_id: 1 },
    paymentMethod,
  })
}

beforeAll(async () => {
  sandbox = await startSandbox({ dataDir: freshDataDir(), now, log: (line) => logs.push(line) })
})
afterAll(async () => {
  await sandbox.close()
  await Promise.all(shops.map((shop) => shop.close()))
})

describe('email verification and the backoffice user', () => {
  it('sends a six-digit code to the log and the inbox, and spends it exactly once', async () => {
    const { client } = await newShop()
    const email = 'merchant-once@example.test'
    expect(await client.sendVerificationEmail(email)).toMatchObject({ email, status: 'sent', expiresAt: '2026-11-21T10:10:00.000Z' })
    const code = await latestCode(email)
    expect(code).toMatch(/^\d{6}$/)
    expect(logs).toContain(`mail to ${email}: your verification code is ${code}`)
    expect(await client.connectBackofficeUser({ email, code })).toEqual({ email, status: 'connected' })
    expect(await serviceError(client.connectBackofficeUser({ email, code }))).toMatchObject({
      status: 422,
      code: 'VERIFICATION_CODE_USED',
    })
  })

  it('refuses a wrong code with the attempts left, and every code after five wrong attempts', async () => {
    const { client } = await newShop()
    const email = 'merchant-wrong@example.test'
    await client.sendVerificationEmail(email)
    const code = await latestCode(email)
    const first = await serviceError(client.connectBackofficeUser({ email, code: wrongCode(code) }))
    expect(first).toMatchObject({ status: 422, code: 'VERIFICATION_CODE_WRONG' })
    expect(first.message).toBe('code: does not match the code sent; 4 attempt(s) left')
    for (let i = 0; i < 4; i++) await serviceError(client.connectBackofficeUser({ email, code: wrongCode(code) }))
    expect((await serviceError(client.connectBackofficeUser({ email, code }))).code).toBe('VERIFICATION_ATTEMPTS_EXCEEDED')
    // A new code starts afresh.
    await client.sendVerificationEmail(email)
    expect((await client.connectBackofficeUser({ email, code: await latestCode(email) })).status).toBe('connected')
  })

  it('refuses an expired code, a superseded one, one never requested, and a sixth mail within ten minutes', async () => {
    const { client } = await newShop()
    const email = 'merchant-expiry@example.test'
    expect((await serviceError(client.connectBackofficeUser({ email, code: '123456' }))).code).toBe('VERIFICATION_NOT_REQUESTED')
    await client.sendVerificationEmail(email)
    const old = await latestCode(email)
    await client.sendVerificationEmail(email)
    const latest = await latestCode(email)
    if (old !== latest)
      expect((await serviceError(client.connectBackofficeUser({ email, code: old }))).code).toBe('VERIFICATION_CODE_EXPIRED')
    clock = new Date(clock.getTime() + 11 * MINUTE)
    try {
      const expired = await serviceError(client.connectBackofficeUser({ email, code: latest }))
      expect(expired).toMatchObject({ status: 422, code: 'VERIFICATION_CODE_EXPIRED' })
      for (let i = 0; i < 5; i++) await client.sendVerificationEmail(email)
      expect(await serviceError(client.sendVerificationEmail(email))).toMatchObject({ status: 429, code: 'VERIFICATION_RATE_LIMITED' })
    } finally {
      clock = new Date(clock.getTime() - 11 * MINUTE)
    }
  })

  it('validates both bodies, naming the field and the rule', async () => {
    const { client } = await newShop()
    expect(await serviceError(client.sendVerificationEmail('not-an-address'))).toMatchObject({
      status: 422,
      code: 'INVALID_REQUEST',
      message: 'email verification: email (format:email)',
    })
    const badCode = await serviceError(client.connectBackofficeUser({ email: 'a@example.test', code: '12345' }))
    expect(badCode.message).toBe('backoffice user: code (six digits)')
  })

  it('asks for a backoffice user before any contractor call', async () => {
    const { client } = await newShop()
    for (const call of [
      () => client.listContractors(),
      () => client.listStores(),
      () => client.onboardingStatus(),
      () => client.createStore(storeBody()),
    ]) {
      expect(await serviceError(call())).toMatchObject({ status: 422, code: 'BACKOFFICE_USER_REQUIRED' })
    }
  })
})

describe('set-up calls repeated under their idempotency key', () => {
  it('a code and a store repeated under their key get the first answer; another body under it is refused', async () => {
    const { client } = await newShop()
    const email = 'repeat@example.test'
    await client.sendVerificationEmail(email)
    const code = await latestCode(email)
    const connected = await client.connectBackofficeUser({ email, code }, { idempotencyKey: 'backoffice-repeat-1' })
    // Spent, but the same request under its key: the first answer, not VERIFICATION_CODE_USED.
    expect(await client.connectBackofficeUser({ email, code }, { idempotencyKey: 'backoffice-repeat-1' })).toEqual(connected)
    expect(await serviceError(client.connectBackofficeUser({ email, code }))).toMatchObject({ code: 'VERIFICATION_CODE_USED' })

    const first = await client.createStore(storeBody({ contractorName: 'Repeat Tea B.V.' }), { idempotencyKey: 'store-repeat-1' })
    const again = await client.createStore(storeBody({ contractorName: 'Repeat Tea B.V.' }), { idempotencyKey: 'store-repeat-1' })
    expect(again).toEqual(first)
    expect((await client.listStores()).map((s) => s.id)).toEqual([first.id])
    const other = storeBody({ contractorName: 'Repeat Tea B.V.', shopperStatement: 'OTHER TEA' })
    expect(await serviceError(client.createStore(other, { idempotencyKey: 'store-repeat-1' }))).toMatchObject({
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
    })
    expect((await client.listStores()).map((s) => s.id)).toEqual([first.id])
  })
})

describe('reference lists', () => {
  it('answers ISO 3166-1 countries and merchant category codes from the pinned data sets', async () => {
    const { client } = await newShop()
    const countries = await client.countries()
    expect(countries.length).toBeGreaterThanOrEqual(249)
    expect(countries).toContainEqual({ code: 'NL', name: 'Netherlands' })
    expect(countries.every((c) => /^[A-Z]{2}$/.test(c.code) && c.name.length > 0)).toBe(true)
    expect(new Set(countries.map((c) => c.code)).size).toBe(countries.length)
    const codes = await client.industryCodes()
    expect(codes.length).toBeGreaterThan(900)
    expect(codes.find((c) => c.code === '5499')?.description).toMatch(/Convenience Stores/)
    expect(codes.every((c) => /^\d{4}$/.test(c.code))).toBe(true)
  })
})

describe('contractors, stores and onboarding', () => {
  let client: ServiceClient
  let shop: TestShop
  let storeId: string
  const email = 'merchant-main@example.test'

  beforeAll(async () => {
    ;({ client, shop } = await newShop())
    await connectAccount(client, email)
  })

  it('starts with no contractors, and listing stores fails until one is connected', async () => {
    expect(await client.listContractors()).toEqual([])
    expect(await serviceError(client.listStores())).toMatchObject({ status: 422, code: 'CONTRACTOR_NOT_CONNECTED' })
    expect(await serviceError(client.onboardingStatus())).toMatchObject({ code: 'CONTRACTOR_NOT_CONNECTED' })
    expect(await serviceError(client.createOnboardingLink())).toMatchObject({ code: 'CONTRACTOR_NOT_CONNECTED' })
  })

  it('refuses store bodies that break a rule, naming each field', async () => {
    const broken = {
      ...storeBody(),
      store: { ...storeBody().store, shopperStatement: 'A STATEMENT FAR TOO LONG FOR ANY CARD', phone: '020 123', extra: 1 },
    }
    const error = await serviceError(client.createStore(broken as CreateStoreRequest))
    expect(error).toMatchObject({ status: 422, code: 'INVALID_REQUEST' })
    expect(error.message).toContain('store.shopperStatement (too_big)')
    expect(error.message).toContain('store.phone (international format: + and 8 to 15 digits, e.g. +31 20 123 4567)')
    expect(error.message).toContain('store.extra (unknown_key)')
    expect(await serviceError(client.createStore(storeBody({ country: 'ZZ' })))).toMatchObject({
      code: 'COUNTRY_NOT_LISTED',
      message: 'contractor.country: not a code from GET /shopplatform/processor/countries',
    })
    expect(await serviceError(client.createStore(storeBody({ industryCode: '0001' })))).toMatchObject({
      code: 'INDUSTRY_CODE_NOT_LISTED',
    })
    expect(await client.listContractors()).toEqual([])
  })

  it('creates the contractor with the first store and connects it', async () => {
    const store = await client.createStore(storeBody())
    storeId = store.id
    expect(store).toMatchObject({
      id: expect.stringMatching(/^store_/),
      label: 'Tea shop online',
      shopperStatement: 'EXAMPLE TEA',
      phone: '+31201234567',
      currency: 'EUR',
    })
    const contractors = await client.listContractors()
    expect(contractors).toEqual([{ id: store.contractorId, name: 'Example Tea B.V.', country: 'NL', type: 'organization' }])
    expect((await client.listStores()).map((s) => s.id)).toEqual([storeId])
  })

  it('never changes the shopper statement after creation, while other fields may change', async () => {
    expect(await serviceError(client.updateStore(storeId, { shopperStatement: 'OTHER TEA' }))).toMatchObject({
      status: 422,
      code: 'SHOPPER_STATEMENT_IMMUTABLE',
    })
    expect((await client.updateStore(storeId, { label: 'Tea shop', shopperStatement: 'EXAMPLE TEA' })).label).toBe('Tea shop')
    expect((await client.listStores())[0]!.shopperStatement).toBe('EXAMPLE TEA')
  })

  it('requires verification, refuses payments until then, and clears after the identity page', async () => {
    const status = await client.onboardingStatus()
    expect(status.status).toBe('verification-required')
    expect(status.errors!.map((e) => e.problem)).toEqual([
      "The identity of the contractor's owner has not been verified.",
      'The company registration has not been verified.',
      'No bank account for payouts is linked.',
    ])
    expect(status.errors!.every((e) => e.actions.length > 0)).toBe(true)
    expect(await serviceError(cardPayment(storeId, client))).toMatchObject({ status: 422, code: 'STORE_NOT_ONBOARDED' })

    const { uri } = await client.createOnboardingLink()
    expect(uri).toMatch(new RegExp(`^${sandbox.baseUrl}/onboarding/[A-Za-z0-9_-]{32}$`))
    const page = await fetch(uri)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Example Tea B.V.')

    const refused = await submitIdentity(uri, { ...IDENTITY, iban: 'NL00ABNA0417164300', birthDate: '2020-01-01' })
    expect(refused.status).toBe(422)
    expect(refused.html).toContain('IBAN: not a valid IBAN (ISO 13616 check digits).')
    expect(refused.html).toContain('Date of birth: a date (YYYY-MM-DD) at least 18 years ago.')
    expect((await client.onboardingStatus()).status).toBe('verification-required')

    const accepted = await submitIdentity(uri, IDENTITY)
    expect(accepted).toMatchObject({ status: 303, location: `${shop.url}/shop-json/service-payments/onboarding-redirect` })
    expect(await client.onboardingStatus()).toEqual({ status: 'verified', contractorId: expect.any(String) })
    expect((await submitIdentity(uri, IDENTITY)).status).toBe(410)
    expect(await serviceError(client.createOnboardingLink())).toMatchObject({ code: 'ONBOARDING_ALREADY_COMPLETE' })
    expect((await cardPayment(storeId, client)).resultCode).toBe('Authorised')
  })

  it('shows rule 3: with two contractors, stores are listed for whichever was connected last', async () => {
    const second = await client.createStore(storeBody({ contractorName: 'Second Tea Ltd', shopperStatement: 'SECOND TEA' }))
    const contractors = await client.listContractors()
    expect(contractors.map((c) => c.name)).toEqual(['Example Tea B.V.', 'Second Tea Ltd'])
    const first = contractors[0]!
    // The second store connected its new contractor: the first store is silently gone from the list.
    expect((await client.listStores()).map((s) => s.id)).toEqual([second.id])
    expect((await client.onboardingStatus()).status).toBe('verification-required')
    await client.connectContractor(first.id)
    expect((await client.listStores()).map((s) => s.id)).toEqual([storeId])
    expect((await client.onboardingStatus()).status).toBe('verified')
    expect(await serviceError(client.connectContractor(crypto.randomUUID()))).toMatchObject({ status: 404, code: 'NOT_FOUND' })
    expect(await serviceError(client.connectContractor('not-a-uuid'))).toMatchObject({
      status: 422,
      message: 'contractor: contractorId (format:uuid)',
    })
  })

  it('lets a second shop of the same account see the contractors, and shuts out other accounts', async () => {
    const sibling = await newShop()
    await connectAccount(sibling.client, email)
    expect((await sibling.client.listContractors()).length).toBe(2)
    expect(await serviceError(sibling.client.listStores())).toMatchObject({ code: 'CONTRACTOR_NOT_CONNECTED' })
    const stranger = await newShop()
    await connectAccount(stranger.client, 'someone-else@example.test')
    expect(await stranger.client.listContractors()).toEqual([])
    expect(await serviceError(cardPayment(storeId, stranger.client))).toMatchObject({ status: 404 })
    expect(await serviceError(stranger.client.updateStore(storeId, { label: 'mine' }))).toMatchObject({ status: 404 })
  })

  it('turns payment methods on and off, and checkout-payment-methods follows', async () => {
    const types = async () =>
      (await client.checkoutPaymentMethods(storeId, { country: 'NL', currency: 'EUR' })).paymentMethods!.map((m) => m.type)
    expect(await types()).toEqual(['scheme', 'ideal', 'klarna'])
    expect((await client.setStorePaymentMethods(storeId, { paymentMethods: [{ type: 'ideal', enabled: false }] })).paymentMethods).toEqual([
      { type: 'scheme', enabled: true },
      { type: 'ideal', enabled: false },
      { type: 'klarna', enabled: true },
    ])
    expect(await types()).toEqual(['scheme', 'klarna'])
    expect(await serviceError(cardPayment(storeId, client, { type: 'ideal' }))).toMatchObject({ code: 'PAYMENT_METHOD_NOT_ENABLED' })
    await client.setStorePaymentMethods(storeId, {
      paymentMethods: [
        { type: 'ideal', enabled: true },
        { type: 'scheme', enabled: false },
      ],
    })
    expect(await types()).toEqual(['ideal', 'klarna'])
    expect(await serviceError(cardPayment(storeId, client))).toMatchObject({ code: 'PAYMENT_METHOD_NOT_ENABLED' })
    const duplicate = await serviceError(
      client.setStorePaymentMethods(storeId, {
        paymentMethods: [
          { type: 'ideal', enabled: true },
          { type: 'ideal', enabled: false },
        ],
      }),
    )
    expect(duplicate.message).toBe('payment methods: paymentMethods (each type at most once)')
    await client.setStorePaymentMethods(storeId, { paymentMethods: [{ type: 'scheme', enabled: true }] })
  })

  it('lets an onboarding link expire after thirty minutes', async () => {
    await client.connectContractor((await client.listContractors())[1]!.id)
    const { uri } = await client.createOnboardingLink()
    clock = new Date(clock.getTime() + 31 * MINUTE)
    try {
      const dead = await fetch(uri)
      expect(dead.status).toBe(410)
      expect(await dead.text()).toContain('This onboarding link has expired.')
    } finally {
      clock = new Date(clock.getTime() - 31 * MINUTE)
    }
  })
})
