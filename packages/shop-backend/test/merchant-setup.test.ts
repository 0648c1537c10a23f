/**
 * backend.merchantSetup against the real sandbox on loopback: a shop registered without a store
 * walks the spec's set-up (email, code, contractor, store, onboarding, return) to an open checkout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateStoreRequest } from '@card-jwe/payment-validator'
import { createServiceClient, ServiceError } from '@card-jwe/service-client'
import {
  createSecretBox,
  ONBOARDED_STATUS,
  paymentServiceFromClient,
  SHOP_SIDE_PATHS,
  ShopBackendError,
  type MerchantSetup,
} from '../src/index.js'
import type { LedgerStore } from '../src/store/ledger-store.js'
import { toNodeListener } from '../src/node/index.js'
import { listen } from './support/listen.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'

let world: World
const closers: Array<() => Promise<void>> = []
beforeAll(async () => {
  world = await startWorld()
})
afterAll(async () => {
  for (const close of closers.reverse()) await close()
  await world.close()
})

const STORE: CreateStoreRequest = {
  contractor: { type: 'organization', name: 'Example Tea B.V.', owner: { firstName: 'Test', lastName: 'Owner' }, country: 'NL' },
  store: {
    label: 'Tea shop online',
    shopperStatement: 'EXAMPLE TEA',
    industryCode: '5499',
    phone: '+31 20 123 4567',
    currency: 'EUR',
    address: { country: 'NL', city: 'Amsterdam', stateOrProvince: '', line1: 'Teststraat 1', line2: '', line3: '', postalCode: '1011 AA' },
  },
}

/** STORE for another contractor: each test's merchant makes their own. */
const storeFor = (contractorName: string): CreateStoreRequest => ({
  contractor: { ...STORE.contractor, name: contractorName },
  store: { ...STORE.store, label: `${contractorName} online` },
})

/** The stores the sandbox holds for a contractor. */
const storesAtService = (contractorId: string): string[] =>
  world.sandboxRows<{ store_id: string }>('SELECT store_id FROM stores WHERE contractor_id = ?', contractorId).map((r) => r.store_id)

interface RegisteredShop extends TestShop {
  readonly url: string
  readonly setup: MerchantSetup
  readonly log: string[]
  config(): Promise<{ checkoutReady: boolean; paymentMethods: string[] }>
  /** A card payment of a new order: the status and the answer. */
  pay(): Promise<{ status: number; body: Record<string, unknown> }>
}

/** A shop on its own loopback port, registered with the sandbox (the service calls its settings endpoints). */
async function registeredShop(
  options: { readonly readyMadeStore?: boolean; readonly wrapStore?: (store: LedgerStore) => LedgerStore } = {},
): Promise<RegisteredShop> {
  let listener: ReturnType<typeof toNodeListener> | undefined
  const http = await listen((req, res) => listener!(req, res))
  const log: string[] = []
  const shop = await startShop(world, {
    connect: false,
    shopUrl: http.url,
    log: (line) => void log.push(line),
    ...(options.wrapStore ? { wrapStore: options.wrapStore } : {}),
  })
  listener = toNodeListener(shop.backend)
  closers.push(async () => {
    await http.close()
    await shop.close()
  })
  await shop.backend.register(options.readyMadeStore ? { readyMadeStore: true } : {})
  return {
    ...shop,
    url: http.url,
    setup: shop.backend.merchantSetup,
    log,
    config: async () => (await shop.backend.fetch(new Request('http://shop.test/api/config'))).json(),
    pay: async () => shop.post('/api/payments', await shop.cardSubmission(shop.createOrder())),
  }
}

let emails = 0
const newEmail = () => `merchant-${Date.now().toString(36)}-${++emails}@example.test`

/** The newest code the sandbox "mailed" to the address. */
async function codeSentTo(email: string): Promise<string> {
  const inbox = (await (await fetch(`${world.sandbox.baseUrl}/sandbox/inbox?email=${encodeURIComponent(email)}`)).json()) as {
    messages: Array<{ code: string }>
  }
  return inbox.messages[0]!.code
}

async function connectAccount(setup: MerchantSetup, email = newEmail()): Promise<string> {
  await setup.sendVerificationEmail(email)
  await setup.verifyCode(await codeSentTo(email))
  return email
}

/** The ShopBackendError a call rejected with. */
async function refusalOf(call: Promise<unknown>): Promise<ShopBackendError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ShopBackendError)
  return error as ShopBackendError
}

/** The merchant at the sandbox's identity page: submits it with the values it offers, as a browser would. */
async function finishOnboarding(uri: string): Promise<string> {
  const page = await fetch(uri)
  expect(page.status).toBe(200)
  const html = await page.text()
  expect(html).toContain('Submit for verification')
  const form = new URLSearchParams([...html.matchAll(/<input id="\w+" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]))
  expect([...form.keys()].sort()).toEqual(['birthDate', 'documentNumber', 'iban', 'registrationNumber'])
  const submitted = await fetch(uri, { method: 'POST', body: form, redirect: 'manual' })
  expect(submitted.status).toBe(303)
  return submitted.headers.get('location')!
}

describe('merchant set-up from a fresh registration (real sandbox)', () => {
  it('before registration the poller says once that the shop is not registered, not at every interval', async () => {
    const log: string[] = []
    const shop = await startShop(world, { connect: false, log: (line) => void log.push(line) })
    closers.push(() => shop.close())
    for (let poll = 0; poll < 3; poll++) expect(await shop.backend.poller.pollNow()).toMatchObject({ failed: 'NOT_REGISTERED' })
    expect(log.filter((line) => line.startsWith('poll failed'))).toEqual(['poll failed (NOT_REGISTERED); the cursor stays where it was'])
  })

  it('walks email, code, contractor, store and onboarding to an open checkout and an Authorised card payment', async () => {
    const shop = await registeredShop()
    const { setup } = shop
    expect(await setup.state()).toMatchObject({ email: null, backofficeUser: false, storeId: null, checkoutReady: false })
    expect(await shop.config()).toMatchObject({ checkoutReady: false, paymentMethods: [] })
    expect((await shop.pay()).status).toBe(503)

    const email = newEmail()
    expect(await setup.sendVerificationEmail(email)).toMatchObject({ email, backofficeUser: false })
    const code = await codeSentTo(email)
    const wrong = await refusalOf(setup.verifyCode(String((Number(code) + 1) % 1_000_000).padStart(6, '0')))
    expect(wrong).toMatchObject({ code: 'SETUP_REFUSED', details: { serviceCode: 'VERIFICATION_CODE_WRONG' } })
    expect(await setup.verifyCode(code)).toMatchObject({ backofficeUser: true, contractorId: null, checkoutReady: false })
    expect(await setup.listContractors()).toEqual([])

    // Spec rule 3: no store call before a contractor is current. The service refuses listing stores
    // then; the back end refuses before asking.
    const sealed = (await shop.store.getSetting('service_secret'))!
    const signed = createServiceClient({
      baseUrl: world.sandbox.baseUrl,
      credentials: {
        shopId: (await shop.store.getSetting('shop_id'))!,
        serviceSecret: await (await createSecretBox(shop.secretKey)).open(sealed),
      },
    })
    const serviceSays = await signed.listStores().catch((e: unknown) => e)
    expect(serviceSays).toBeInstanceOf(ServiceError)
    expect((serviceSays as ServiceError).code).toBe('CONTRACTOR_NOT_CONNECTED')
    const storesBefore = world.proxy.counted('GET', '/shopplatform/processor/stores')
    for (const call of [setup.chooseStore('store_0123456789'), setup.onboardingLink(), setup.refreshOnboarding()]) {
      const refused = await refusalOf(call)
      expect(refused).toMatchObject({ code: 'SETUP_STEP_MISSING', details: { missing: 'contractor' } })
      expect(refused.message).toMatch(/^contractorId: /)
    }
    expect(world.proxy.counted('GET', '/shopplatform/processor/stores')).toBe(storesBefore)

    const lists = await setup.lists()
    expect(lists.countries.map((c) => c.code)).toContain('NL')
    expect(lists.industryCodes.map((c) => c.code)).toContain('5499')
    expect(lists.currencies).toContain('EUR')
    const countriesAsked = world.proxy.counted('GET', '/countries')
    expect(await setup.lists()).toBe(lists)
    expect(world.proxy.counted('GET', '/countries')).toBe(countriesAsked)

    const created = await setup.createStore(STORE)
    expect(created).toMatchObject({
      storeId: expect.stringMatching(/^store_/),
      contractorId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      onboardingStatus: 'verification-required',
      checkoutReady: false,
    })
    expect(created.onboardingErrors.length).toBeGreaterThan(0)
    expect(await shop.config()).toMatchObject({ checkoutReady: false })
    const closed = await shop.pay()
    expect(closed.status).toBe(503)
    expect(closed.body.error).toBe('NOT_REGISTERED')
    // The feed is the shop's: the poller reads it while the checkout waits for onboarding.
    const feedReads = world.proxy.counted('GET', '/updated-payments')
    expect(await shop.backend.poller.pollNow()).not.toHaveProperty('failed')
    expect(world.proxy.counted('GET', '/updated-payments')).toBe(feedReads + 1)

    // The return endpoint without an answer from the service: the merchant is still redirected.
    world.proxy.mode = 'down'
    try {
      const stillRedirected = await fetch(`${shop.url}${SHOP_SIDE_PATHS.onboardingReturn}`, { redirect: 'manual' })
      expect(stillRedirected.status).toBe(302)
    } finally {
      world.proxy.mode = 'pass'
    }
    expect(shop.log.some((line) => line.includes('status not re-checked (SERVICE_UNREACHABLE)'))).toBe(true)

    const back = await finishOnboarding((await setup.onboardingLink()).uri)
    expect(back).toBe(`${shop.url}${SHOP_SIDE_PATHS.onboardingReturn}`)
    // Verified at the service, but the shop has not heard yet: still closed until the merchant is back.
    expect(await shop.config()).toMatchObject({ checkoutReady: false })
    const returned = await fetch(back, { redirect: 'manual' })
    expect(returned.status).toBe(302)
    expect(returned.headers.get('location')).toBe('/admin.html?onboarding=returned')

    expect(await setup.state()).toMatchObject({
      storeId: created.storeId,
      onboardingStatus: ONBOARDED_STATUS,
      onboardingErrors: [],
      checkoutReady: true,
    })
    expect(await shop.store.getSetting('store_id')).toBe(created.storeId)
    expect(await shop.config()).toMatchObject({ checkoutReady: true, paymentMethods: expect.arrayContaining(['scheme']) })
    const paid = await shop.pay()
    expect(paid.status).toBe(200)
    expect(paid.body.resultCode).toBe('Authorised')
  })

  it('closes the checkout when a code connects a new account (the ready-made store is forgotten)', async () => {
    const shop = await registeredShop({ readyMadeStore: true })
    const before = await shop.setup.state()
    expect(before).toMatchObject({ readyMadeStore: true, onboardingStatus: ONBOARDED_STATUS, checkoutReady: true })
    expect(before.storeId).toBe(await shop.store.getSetting('store_id'))
    expect((await shop.pay()).body.resultCode).toBe('Authorised')

    await connectAccount(shop.setup)
    expect(await shop.setup.state()).toMatchObject({
      backofficeUser: true,
      contractorId: null,
      storeId: null,
      onboardingStatus: null,
      readyMadeStore: false,
      checkoutReady: false,
    })
    expect(await shop.config()).toMatchObject({ checkoutReady: false })
    expect((await shop.pay()).status).toBe(503)
  })

  it('a step whose settings write fails keeps the set-up as it was: a new account never half-forgets the last one', async () => {
    // The store refuses any write of the ready-made mark while `refusing` (a full disk, a crash at that write): the
    // last of the settings a new account empties.
    let refusing = false
    const refusal = () => Promise.reject(Object.assign(new Error('the disk is full'), { code: 'SQLITE_FULL' }))
    const wrapStore = (store: LedgerStore): LedgerStore => ({
      ...store,
      putSetting: (id, value) => (refusing && id === 'ready_made_store' ? refusal() : store.putSetting(id, value)),
      putSettings: (settings) => (refusing && 'ready_made_store' in settings ? refusal() : store.putSettings(settings)),
    })
    const shop = await registeredShop({ readyMadeStore: true, wrapStore })
    const email = newEmail()
    await shop.setup.sendVerificationEmail(email)
    const code = await codeSentTo(email)
    const before = await shop.setup.state()
    expect(before).toMatchObject({ email, readyMadeStore: true, onboardingStatus: ONBOARDED_STATUS, checkoutReady: true })

    refusing = true
    await expect(shop.setup.verifyCode(code)).rejects.toThrow('the disk is full')
    // Nothing of the step is kept: not the earlier store's status emptied while it stays ready-made, not the new account.
    expect(await shop.setup.state()).toEqual(before)

    // The same step again (the service keeps the code's first answer under its key) finishes it whole.
    refusing = false
    await shop.setup.verifyCode(code)
    expect(await shop.setup.state()).toMatchObject({ backofficeUser: true, storeId: null, onboardingStatus: null, checkoutReady: false })
  })

  it("refuses a store that is not the chosen contractor's, naming storeId", async () => {
    const shop = await registeredShop()
    await connectAccount(shop.setup)
    const created = await shop.setup.createStore(STORE)
    const foreign = world.sandbox.readyMadeShop.storeId
    const refused = await refusalOf(shop.setup.chooseStore(foreign))
    expect(refused).toMatchObject({ code: 'STORE_NOT_FOUND' })
    expect(refused.message).toMatch(/^storeId: /)
    expect(refused.message).not.toContain(foreign)
    const malformed = await refusalOf(shop.setup.chooseStore('no such id!'))
    expect(malformed).toMatchObject({ code: 'INVALID_INPUT', details: [{ path: 'storeId', rule: expect.any(String) }] })
    expect(malformed.message).not.toContain('no such id!')
    expect((await shop.setup.state()).storeId).toBe(created.storeId)
  })

  it('refuses an invalid email naming the field, without the value, and sends nothing', async () => {
    const shop = await registeredShop()
    const sent = world.proxy.counted('POST', '/email-verification-messages')
    const value = 'merchant@@shop.example'
    const refused = await refusalOf(shop.setup.sendVerificationEmail(value))
    expect(refused).toMatchObject({ code: 'INVALID_INPUT', details: [{ path: 'email', rule: 'format:email' }] })
    expect(refused.message).toMatch(/^email /)
    expect(refused.message).not.toContain(value)
    expect(refused.message).not.toContain('shop.example')
    expect(world.proxy.counted('POST', '/email-verification-messages')).toBe(sent)
    expect((await shop.setup.state()).email).toBeNull()
    // A code before any email: the step is named.
    expect(await refusalOf(shop.setup.verifyCode('123456'))).toMatchObject({ code: 'SETUP_STEP_MISSING', details: { missing: 'email' } })
  })

  it('says SERVICE_UNREACHABLE when the service gives no answer', async () => {
    const shop = await registeredShop()
    world.proxy.mode = 'down'
    try {
      expect(await refusalOf(shop.setup.listContractors())).toMatchObject({ code: 'SERVICE_UNREACHABLE' })
    } finally {
      world.proxy.mode = 'pass'
    }
  })

  it("re-checks the status as the chosen contractor (spec rule 3): a lost choice's answer cannot open another's store", async () => {
    const shop = await registeredShop()
    await connectAccount(shop.setup)
    const onboarded = await shop.setup.createStore(storeFor('Alpha Tea B.V.'))
    await finishOnboarding((await shop.setup.onboardingLink()).uri)
    expect(await shop.setup.refreshOnboarding()).toMatchObject({ storeId: onboarded.storeId, checkoutReady: true })
    const fresh = await shop.setup.createStore(storeFor('Beta Tea B.V.'))
    expect(fresh).toMatchObject({ onboardingStatus: 'verification-required', checkoutReady: false })

    // The merchant picks the onboarded contractor again: the service makes it current, the answer is lost.
    const contractorPut = (method: string, path: string) => method === 'PUT' && path.endsWith('/shopplatform/processor/contractor')
    const lost = await world.whileProxy('lose', contractorPut, () => refusalOf(shop.setup.chooseContractor(onboarded.contractorId!)))
    expect(lost).toMatchObject({ code: 'SERVICE_UNREACHABLE' })

    // Anyone may open the onboarding return: the re-check reads the chosen (new) contractor's status.
    expect((await fetch(`${shop.url}${SHOP_SIDE_PATHS.onboardingReturn}`, { redirect: 'manual' })).status).toBe(302)
    expect(await shop.setup.state()).toMatchObject({
      contractorId: fresh.contractorId,
      storeId: fresh.storeId,
      onboardingStatus: 'verification-required',
      checkoutReady: false,
    })
    expect((await shop.pay()).status).toBe(503)
  })

  it("makes one store when the creation's answer is lost, on the client's retry and on the merchant's", async () => {
    const shop = await registeredShop()
    await connectAccount(shop.setup)
    const storesPost = (method: string, path: string) => method === 'POST' && path.endsWith('/shopplatform/processor/stores')
    // The first answer lost: the client's own retry (the same key) gets the store the first call made.
    let answersLost = 0
    const once = await world.whileProxy(
      'lose',
      (method, path) => storesPost(method, path) && answersLost++ === 0,
      () => shop.setup.createStore(storeFor('Gamma Tea B.V.')),
    )
    expect(storesAtService(once.contractorId!)).toEqual([once.storeId])

    // Every answer lost: 503 to the merchant, who asks again; the store the lost calls made comes back.
    const body = storeFor('Delta Tea B.V.')
    const unanswered = await world.whileProxy('lose', storesPost, () => refusalOf(shop.setup.createStore(body)))
    expect(unanswered).toMatchObject({ code: 'SERVICE_UNREACHABLE' })
    const again = await shop.setup.createStore(body)
    expect(storesAtService(again.contractorId!)).toEqual([again.storeId])
  })

  it('connects the account when a code is sent again after its answer was lost, not "code already used"', async () => {
    const shop = await registeredShop()
    const email = newEmail()
    await shop.setup.sendVerificationEmail(email)
    const code = await codeSentTo(email)
    const userPut = (method: string, path: string) => method === 'PUT' && path.endsWith('/backoffice-user')
    expect(await world.whileProxy('lose', userPut, () => refusalOf(shop.setup.verifyCode(code)))).toMatchObject({
      code: 'SERVICE_UNREACHABLE',
    })
    expect(await shop.setup.verifyCode(code)).toMatchObject({ email, backofficeUser: true })
  })

  it('keeps the chosen store and an open checkout when the merchant signs in again with the same account', async () => {
    const shop = await registeredShop()
    const email = await connectAccount(shop.setup)
    const created = await shop.setup.createStore(storeFor('Epsilon Tea B.V.'))
    await finishOnboarding((await shop.setup.onboardingLink()).uri)
    expect(await shop.setup.refreshOnboarding()).toMatchObject({ storeId: created.storeId, checkoutReady: true })

    await connectAccount(shop.setup, email)
    expect(await shop.setup.state()).toMatchObject({ contractorId: created.contractorId, storeId: created.storeId, checkoutReady: true })
    expect((await shop.pay()).body.resultCode).toBe('Authorised')
  })

  it('throws a TypeError when a custom service factory gives only the payment calls', async () => {
    const readyMade = world.sandbox.readyMadeShop
    const shop = await startShop(world, {
      service: (credentials) =>
        paymentServiceFromClient(createServiceClient({ baseUrl: world.proxy.baseUrl, fetch: world.proxy.fetch, credentials })),
    })
    closers.push(() => shop.close())
    await expect(shop.backend.merchantSetup.listContractors()).rejects.toThrow(TypeError)
    // The payment calls work as before.
    expect(shop.shopId).toBe(readyMade.shopId)
    const paid = await shop.post('/api/payments', await shop.cardSubmission(shop.createOrder()))
    expect(paid.body.resultCode).toBe('Authorised')
  })
})
