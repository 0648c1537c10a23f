/**
 * Every sandbox page escapes what it did not write itself, served over real HTTP from a running
 * sandbox: a merchant's contractor and owner names (onboarding), a shop's return origin (3-D
 * Secure notifications), and values read back from the payment store (bank and challenge pages;
 * written straight into SQLite, since the API refuses them, to show the page does not rely on that).
 */
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit'
import { createServiceClient } from '@card-jwe/service-client'
import { actionField, decodeToken } from './support/browser-steps.js'
import { registeredShop, type RegisteredShop } from './support/sandbox-fixture.js'
import { startTestShop, type TestShop } from './support/shop-server.js'

const SCRIPT = '<script>alert(1)</script>'
const ESCAPED_SCRIPT = '&lt;script&gt;alert(1)&lt;/script&gt;'

let fixture: RegisteredShop
const shops: TestShop[] = []

beforeAll(async () => {
  fixture = await registeredShop()
})
afterAll(async () => {
  await fixture.close()
  await Promise.all(shops.map((shop) => shop.close()))
})

const postForm = (url: string, fields: Record<string, string>) => fetch(url, { method: 'POST', body: new URLSearchParams(fields) })

/** Writes hostile values into a payment's row, as a corrupted or tampered store would hold them. */
function tamperWithPayment(transactionId: string, columns: Record<string, string>): void {
  const db = new Database(fixture.sandbox.databasePath)
  try {
    const set = Object.keys(columns)
      .map((column) => `${column} = @${column}`)
      .join(', ')
    expect(db.prepare(`UPDATE payments SET ${set} WHERE transaction_id = @transactionId`).run({ ...columns, transactionId }).changes).toBe(
      1,
    )
  } finally {
    db.close()
  }
}

describe('onboarding page (pages/onboarding.ts)', () => {
  it('escapes the contractor’s name and its owner’s names that a merchant typed', async () => {
    const shop = await startTestShop()
    shops.push(shop)
    const baseUrl = fixture.sandbox.baseUrl
    const { shopId } = await createServiceClient({ baseUrl }).register({ shopUrl: shop.url, key: shop.key, secret: shop.secret })
    const client = createServiceClient({ baseUrl, credentials: { shopId, serviceSecret: shop.settings.get('service_secret')! } })
    const email = 'hostile@shop.example'
    await client.sendVerificationEmail(email)
    const inbox = (await (await fetch(`${baseUrl}/sandbox/inbox?email=${encodeURIComponent(email)}`)).json()) as {
      messages: Array<{ code: string }>
    }
    await client.connectBackofficeUser({ email, code: inbox.messages[0]!.code })
    await client.createStore({
      contractor: {
        type: 'organization',
        name: `Tea ${SCRIPT} B.V.`,
        owner: { firstName: '"><img src=x>', lastName: "O'Brien & Sons" },
        country: 'NL',
      },
      store: {
        label: 'Tea shop online',
        shopperStatement: 'EXAMPLE TEA',
        industryCode: '5499',
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
    })
    const { uri } = await client.createOnboardingLink()

    const response = await fetch(uri)
    const page = await response.text()
    expect(response.status).toBe(200)
    expect(page).toContain(`<strong>Tea ${ESCAPED_SCRIPT} B.V.</strong>`)
    expect(page).toContain('Date of birth of &quot;&gt;&lt;img src=x&gt; O&#39;Brien &amp; Sons</label>')
    expect(page).not.toContain(SCRIPT)
    expect(page).not.toContain('<img')
  })
})

describe('3-D Secure pages (pages/threeds.ts, pages/page.ts)', () => {
  it('escapes the shop’s return origin in the method notification’s data-target-origin', async () => {
    // A host may hold ", ' and & (WHATWG URL); the origin of this returnUrl keeps all three.
    const request = await fixture.cardPayment(findTestCard({ threeDSecure: 'frictionless' }), {
      returnUrl: `https://shop"'&x.example/return`,
    })
    const first = await fixture.client.createPayment(fixture.storeId, request)
    const token = decodeToken(actionField(first, 'token'))
    const data = Buffer.from(JSON.stringify({ threeDSServerTransID: token.threeDSServerTransID })).toString('base64url')

    const page = await (await postForm(token.threeDSMethodNotificationURL!, { threeDSMethodData: data })).text()
    expect(page).toContain('data-target-origin="https://shop&quot;&#39;&amp;x.example"')
    expect(page).not.toContain(`shop"'&x`)
  })

  it('escapes the amount’s currency and the card’s last four digits on the challenge page', async () => {
    const card = findTestCard({ brand: 'visa', threeDSecure: 'challenge' })
    const first = await fixture.client.createPayment(fixture.storeId, await fixture.cardPayment(card))
    const method = decodeToken(actionField(first, 'token'))
    const methodData = Buffer.from(JSON.stringify({ threeDSServerTransID: method.threeDSServerTransID })).toString('base64url')
    expect((await postForm(method.threeDSMethodNotificationURL!, { threeDSMethodData: methodData })).ok).toBe(true)
    const threeDSResult = Buffer.from(JSON.stringify({ threeDSCompInd: 'Y', threeDSServerTransID: method.threeDSServerTransID })).toString(
      'base64',
    )
    const second = await fixture.client.paymentDetails(fixture.storeId, { details: { threeDSResult } })
    const token = decodeToken(actionField(second, 'token'))
    tamperWithPayment(token.threeDSServerTransID!, { currency: SCRIPT, card_last_four: '"><b>' })

    const creq = Buffer.from(
      JSON.stringify({
        threeDSServerTransID: token.threeDSServerTransID,
        acsTransID: token.acsTransID,
        messageVersion: token.messageVersion,
        messageType: 'CReq',
      }),
    ).toString('base64url')
    const response = await postForm(token.acsURL!, { creq })
    const page = await response.text()
    expect(response.status).toBe(200)
    expect(page).toContain(`&nbsp;${ESCAPED_SCRIPT} with your card ending &quot;&gt;&lt;b&gt;.`)
    expect(page).not.toContain(SCRIPT)
    expect(page).not.toContain('<b>')
  })
})

describe('bank page (pages/redirect.ts)', () => {
  it('escapes the method type and the currency it reads back from the payment', async () => {
    const request = {
      ...(await fixture.cardPayment(findTestCard({ threeDSecure: 'none', outcome: 'authorised' }))),
      paymentMethod: { type: 'ideal' },
    }
    const url = actionField(await fixture.client.createPayment(fixture.storeId, request), 'url')
    tamperWithPayment(new URL(url).pathname.split('/').pop()!, { method_type: `ideal"${SCRIPT}`, currency: "E'&R" })

    const response = await fetch(url)
    const page = await response.text()
    expect(response.status).toBe(200)
    expect(page).toContain(`<h1>Sandbox bank (ideal&quot;${ESCAPED_SCRIPT})</h1>`)
    expect(page).toContain('minor units of E&#39;&amp;R?')
    expect(page).not.toContain(SCRIPT)
  })
})
