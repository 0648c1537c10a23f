/**
 * The shop-backend README's Express, Fastify and Koa shops, taken from the README as written, built
 * in a project outside the workspace from the tarballs only (each framework installed there as a shop
 * installs it), run against the sandbox's command (`card-jwe-sandbox --port 0 --ready-made-store`,
 * also from its tarball), serving the demo's built checkout page; Chromium pays a challenged card to
 * Authorised through each, and the sandbox's own list (GET /sandbox/payments) holds that one payment.
 * Each shop whose registration fails ends with the error. Then @card-jwe/checkout's README page (its
 * markup and whole page script, built by the shop's Vite) on the Express shop pays a challenged card.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../support/free-port.ts'
import { exitOf, freshGet, startSandboxCommand, waitFor } from './child-processes.ts'
import { readmeBlocks } from './readme-blocks.ts'
import { makeShopProject, root, runIn, type ShopProject } from './shop-project.ts'

const SETUP_TIMEOUT = 240_000
const STEP_TIMEOUT = 150_000
const README = 'packages/shop-backend/README.md'
/** The frameworks whose README shop is built and run here. */
const FRAMEWORKS = ['express', 'fastify', 'koa'] as const
type Framework = (typeof FRAMEWORKS)[number]

/** A POST whose headers and first half of the body are sent now; `finish()` sends the rest and reads the answer. */
async function requestHalfSent(url: string, body: string) {
  const half = Math.floor(body.length / 2)
  const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } })
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('error', reject)
    request.on('response', (response) => {
      let text = ''
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
    })
  })
  request.write(body.slice(0, half))
  await new Promise((resolve) => setTimeout(resolve, 100)) // the shop has the request open
  return {
    finish: () => {
      request.end(body.slice(half))
      return answer
    },
  }
}

/** The README's shop for a framework: the one block that imports its adapter. */
function readmeShop(adapter: Framework): string {
  const found = readmeBlocks(root).filter((b) => b.file === README && b.imports.includes(`@card-jwe/shop-backend/${adapter}`))
  expect(found).toHaveLength(1)
  return found[0]!.code
}

/** The lines of the README's Express shop, blank lines included (the closing note quotes it). */
const expressShopLines = () => readmeShop('express').trimEnd().split('\n').length

let project: ShopProject
let sandbox: ChildProcess
let sandboxUrl: string
let certificatePath: string
const started: ChildProcess[] = []
const dataDirs: string[] = []

const SPEC = `import { expect, test } from '@playwright/test'
import { answerChallenge, findTestCard } from '@card-jwe/sandbox/playwright'

test('a challenged card pays to Authorised', async ({ page }) => {
  const card = findTestCard({ brand: 'visa', threeDSecure: 'challenge' })
  await page.goto(process.env.SHOP_URL!)
  await page.getByRole('button', { name: 'Continue to payment' }).click()
  await expect(page.getByLabel('Card number')).toBeVisible()
  await page.getByLabel('Card number').pressSequentially(card.number)
  await page.getByLabel('Expiry date (MM/YY)').pressSequentially(card.expiryMonth + card.expiryYear.slice(2))
  await page.locator('#card-form').getByLabel(/Security code/).fill(card.securityCode)
  await page.getByRole('button', { name: /^Pay/ }).click()
  await answerChallenge(page, 'approve')
  await expect(page.locator('#result-code')).toHaveText('Authorised')
})
`
const CHROMIUM_ARGS = "'--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update'"
const CONFIG = `import { defineConfig } from '@playwright/test'
export default defineConfig({
  testDir: '.', outputDir: '../playwright-results-shops', timeout: 60_000, reporter: [['list']],
  use: { browserName: 'chromium', launchOptions: { executablePath: '/usr/bin/chromium', args: [${CHROMIUM_ARGS}] } },
})
`

/** A README shop of `framework` from its compiled file, serving `pageDir`, on a free port against the sandbox. */
async function startReadmeShop(
  framework: Framework,
  pageDir: string,
): Promise<{ shopUrl: string; dataDir: string; shop: ChildProcess; printed: () => string }> {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), `card-jwe-${framework}-shop-`))
  dataDirs.push(dataDir)
  const shop = spawn(process.execPath, [join(project.dir, 'shops/out', `${framework}-shop.js`)], {
    cwd: project.dir,
    env: {
      ...process.env,
      PORT: String(port),
      SERVICE_URL: sandboxUrl,
      CERTIFICATE_PATH: certificatePath,
      DATA_DIR: dataDir,
      PAGE_DIR: pageDir,
    },
  })
  started.push(shop)
  let printed = ''
  for (const stream of [shop.stdout, shop.stderr]) stream.on('data', (chunk: Buffer) => (printed += chunk))
  const { match } = await waitFor(shop, /^shop: (http:\/\/\S+)$/m)
  const shopUrl = match[1]!
  expect(shopUrl).toBe(`http://127.0.0.1:${port}`)
  return { shopUrl, dataDir, shop, printed: () => printed }
}

/** Runs the Playwright specs of the project's folder `folder` against `shopUrl`; its output, also kept in test-results. */
function runPlaywright(folder: string, shopUrl: string, resultFile: string): string {
  const run = spawnSync(
    join(project.dir, 'node_modules/.bin/playwright'),
    ['test', '-c', join(project.dir, folder, 'playwright.config.ts')],
    {
      cwd: project.dir,
      env: { ...process.env, CI: 'true', FORCE_COLOR: '0', SHOP_URL: shopUrl },
      encoding: 'utf8',
    },
  )
  const output = `${run.stdout}${run.stderr}`
  mkdirSync(join(root, 'test-results'), { recursive: true })
  writeFileSync(join(root, 'test-results', resultFile), output)
  expect(run.status, output).toBe(0)
  return output
}

beforeAll(async () => {
  project = makeShopProject()
  // The shops, as the README has them, compiled by the shop's own TypeScript.
  const dir = join(project.dir, 'shops')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  for (const framework of FRAMEWORKS) writeFileSync(join(dir, `${framework}-shop.ts`), readmeShop(framework))
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'Node16',
        moduleResolution: 'Node16',
        strict: true,
        skipLibCheck: true,
        types: ['node'],
        outDir: 'out',
      },
      files: FRAMEWORKS.map((framework) => `${framework}-shop.ts`),
    }),
  )
  runIn(project, 'tsc', ['-p', dir])
  // The checkout page: the demo's built front end, which calls the back end's /api paths.
  cpSync(join(root, 'apps/demo/dist/front'), join(project.dir, 'page'), { recursive: true })
  const e2e = join(project.dir, 'shops-e2e')
  mkdirSync(e2e, { recursive: true })
  writeFileSync(join(e2e, 'checkout.spec.ts'), SPEC)
  writeFileSync(join(e2e, 'playwright.config.ts'), CONFIG)

  const sandboxData = mkdtempSync(join(tmpdir(), 'card-jwe-shops-sandbox-'))
  dataDirs.push(sandboxData)
  const command = await startSandboxCommand(project.dir, sandboxData)
  sandbox = command.child
  sandboxUrl = command.url
  certificatePath = command.certificatePath
}, SETUP_TIMEOUT)

afterAll(() => {
  for (const child of [...started, sandbox]) if (child && child.exitCode === null) child.kill('SIGTERM')
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
})

describe.each(FRAMEWORKS)("the shop-backend README's %s shop, from the tarballs", (framework) => {
  it(
    'registers with the sandbox and takes a challenged card to Authorised in Chromium; the ledger holds the one payment',
    async () => {
      const { shopUrl, dataDir, shop, printed } = await startReadmeShop(framework, join(project.dir, 'page'))
      const config = await (await fetch(`${shopUrl}/api/config`)).json()
      // A broken page posting raw card fields as JSON cut short: refused by the back end in JSON, and the
      // card's fields in no answer and no line the shop printed (a parser's error would quote the body).
      const cut = '{"orderId":"1","paymentMethod":{"type":"scheme","number":"4111111145551142","cvc":"737","expiryYear":"2030"'
      const broken = await fetch(`${shopUrl}/api/payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: cut })
      const brokenBody = await broken.text()
      expect({ status: broken.status, json: broken.headers.get('content-type')?.startsWith('application/json') }).toEqual({
        status: 400,
        json: true,
      })
      // The expiry as its JSON value (quoted), so a port number in the printed lines is no match.
      const cardFields = /4111111145551142|"cvc"|"expiryYear"|"2030"/
      expect(brokenBody).not.toMatch(cardFields)
      // The shop's own route, the same cut body: a 4xx in JSON quoting none of it (Express's default error
      // handler would answer an HTML page and print the body whole; the README's shop answers it itself).
      const own = await fetch(`${shopUrl}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: cut })
      const ownBody = await own.text()
      expect({
        clientError: own.status >= 400 && own.status < 500,
        json: own.headers.get('content-type')?.startsWith('application/json'),
      }).toEqual({
        clientError: true,
        json: true,
      })
      expect(ownBody).not.toMatch(cardFields)
      expect(config).toMatchObject({ checkoutReady: true, serviceReachable: true, paymentMethods: expect.arrayContaining(['scheme']) })

      const output = runPlaywright('shops-e2e', shopUrl, `shop-backend-${framework}-shop.txt`)
      expect(output).toMatch(/1 passed/)

      const ledger = new Database(join(dataDir, 'payments.sqlite'), { readonly: true })
      let orderId: string
      try {
        const attempts = ledger.prepare('SELECT state, psp_reference AS pspReference, order_id AS orderId FROM attempts').all()
        expect(attempts).toEqual([{ state: 'authorised', pspReference: expect.any(String), orderId: expect.any(String) }])
        orderId = (attempts[0] as { orderId: string }).orderId
      } finally {
        ledger.close()
      }
      // The service's side: one payment for the order, authorised.
      const held = await freshGet(`${sandboxUrl}/sandbox/payments?reference=order-${orderId}`)
      expect(JSON.parse(held.body)).toMatchObject({ count: 1, payments: [{ resultCode: 'Authorised', status: 'authorised' }] })
      // Any other path is the shop's own: its 404 here.
      expect((await freshGet(`${shopUrl}/api/no-such-thing`)).status).toBe(404)
      // An asset that is not there, or a folder: 404, not the file system's error (a 500 naming the server's folder).
      for (const path of ['/assets/no-such-file.js', '/assets/']) {
        const missing = await freshGet(`${shopUrl}${path}`)
        expect({ path, status: missing.status, fileSystemError: /ENOENT|EISDIR/.test(missing.body) }).toEqual({
          path,
          status: 404,
          fileSystemError: false,
        })
      }
      // An empty basket is no order: refused by the shop, never a zero amount sent to the service.
      const empty = await fetch(`${shopUrl}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items: [] }),
      })
      expect({ status: empty.status, body: await empty.json() }).toMatchObject({ status: 422, body: { error: 'EMPTY_BASKET' } })
      // A deploy's SIGTERM while a request is on its way (half its body sent): it is answered, then the shop exits 0.
      const exited = exitOf(shop)
      const inFlight = await requestHalfSent(`${shopUrl}/api/orders`, JSON.stringify({ items: [{ sku: 'mug', quantity: 1 }] }))
      shop.kill('SIGTERM')
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(await inFlight.finish()).toMatchObject({ status: 200, body: expect.stringContaining('"value":1450') })
      expect((await exited).code).toBe(0)
      // Everything the shop printed, read once it exited.
      expect(printed()).not.toMatch(cardFields)
    },
    STEP_TIMEOUT,
  )
})

describe.each(FRAMEWORKS)("the shop-backend README's %s shop, when its registration fails", (framework) => {
  it(
    'ends with the error, exit code 1, even where an unhandled rejection only warns',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), `card-jwe-${framework}-refused-`))
      dataDirs.push(dataDir)
      // A path the sandbox does not serve: registration is refused (NOT_FOUND) at once. With
      // --unhandled-rejections=warn (as a host's own handler would), a rejection nobody awaits leaves the
      // shop serving unregistered; one awaited at the top level still ends it.
      const shop = spawn(process.execPath, ['--unhandled-rejections=warn', join(project.dir, 'shops/out', `${framework}-shop.js`)], {
        cwd: project.dir,
        env: {
          ...process.env,
          PORT: String(await freePort()),
          SERVICE_URL: `${sandboxUrl}/no-such-service`,
          CERTIFICATE_PATH: certificatePath,
          DATA_DIR: dataDir,
          PAGE_DIR: join(project.dir, 'page'),
        },
      })
      started.push(shop)
      const { code, output } = await exitOf(shop)
      expect(code, output).toBe(1)
      expect(output).toMatch(/the payment service refused \(NOT_FOUND\)/)
      expect(output).not.toMatch(/^shop: /m)
      expect(output).not.toMatch(/UnhandledPromiseRejection/)
    },
    STEP_TIMEOUT,
  )
})

it('counts the lines of the README Express shop', () => {
  const lines = expressShopLines()
  writeFileSync(join(root, 'test-results', 'shop-backend-express-shop-lines.txt'), `${lines}\n`)
  // Its own routes' error handler included (it keeps a broken body out of the log).
  expect(lines).toBeLessThan(90)
  expect(execFileSync('tar', ['tzf', project.tarballs.get('@card-jwe/shop-backend')!], { encoding: 'utf8' })).toContain(
    'package/dist/express/index.js',
  )
  expect(readFileSync(join(project.dir, 'shops/out/express-shop.js'), 'utf8')).toContain('shopBackendHandler')
})

const CHECKOUT_README = 'packages/checkout/README.md'
const CHECKOUT_SPEC = `import { expect, type Route, test } from '@playwright/test'
import { answerChallenge, findTestCard } from '@card-jwe/sandbox/playwright'

test('the checkout README page pays a challenged card', async ({ page }) => {
  const card = findTestCard({ brand: 'visa', threeDSecure: 'challenge' })
  await page.goto(process.env.SHOP_URL!)
  await expect(page.getByRole('button', { name: 'Pay' })).toBeEnabled()
  await page.getByLabel('Card number').pressSequentially(card.number)
  await page.getByLabel('Expiry date (MM/YY)').pressSequentially(card.expiryMonth + card.expiryYear.slice(2))
  // Pay pressed while the code is short: its error appears as the code field loses focus, and the click
  // still reaches Pay (an error's text must not move Pay from under the pointer), which names the fix.
  await page.getByLabel(/Security code/).fill(card.securityCode.slice(0, 1))
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page.locator('#status')).toHaveText('Please correct the highlighted fields.')
  await page.getByLabel(/Security code/).fill(card.securityCode)
  await page.getByRole('button', { name: 'Pay' }).click()
  await answerChallenge(page, 'approve')
  await expect(page.locator('#result')).toHaveAttribute('data-kind', 'paid')
  await expect(page.locator('#result')).toHaveText('Payment authorised. Thank you!')
  // A reload shows the same order (its id kept for the tab), never a new one for the same basket,
  // and says it is paid with Pay kept off: nothing is sent again (one attempt in the ledger).
  const paidAddress = page.url()
  await page.reload()
  expect(page.url()).toBe(paidAddress)
  await expect(page.locator('#result')).toHaveAttribute('data-kind', 'paid')
  await expect(page.locator('#result')).toHaveText('Payment authorised. Thank you!')
  await expect(page.getByRole('button', { name: 'Pay' })).toBeDisabled()
  // The shop's order route failing on a reload (a 502 once): no second order for the basket, which
  // the shopper could pay again; Pay stays off and the words say payment is not possible now.
  const paidId = await page.evaluate(() => sessionStorage.getItem('orderId'))
  const created: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/orders') created.push(request.url())
  })
  await page.route('**/api/orders/*', (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }), { times: 1 })
  await page.reload()
  await expect(page.locator('#result')).toHaveAttribute('data-kind', 'retry')
  await expect(page.locator('#result')).toHaveText('Payment is not possible right now. Try again in a moment; you are never charged twice.')
  await expect(page.getByRole('button', { name: 'Pay' })).toBeDisabled()
  expect(created).toEqual([])
  expect(await page.evaluate(() => sessionStorage.getItem('orderId'))).toBe(paidId)
  // The same when the request fails on the way (the shop restarting), or its answer is no order.
  for (const broken of [(route: Route) => route.abort(), (route: Route) => route.fulfill({ status: 200, body: 'not an order' })]) {
    await page.route('**/api/orders/*', broken, { times: 1 })
    await page.reload()
    await expect(page.locator('#result')).toHaveAttribute('data-kind', 'retry')
    await expect(page.getByRole('button', { name: 'Pay' })).toBeDisabled()
    expect(created).toEqual([])
    expect(await page.evaluate(() => sessionStorage.getItem('orderId'))).toBe(paidId)
  }
  // An id the shop no longer knows (its orders in memory, then a restart): a new order, and Pay on.
  await page.evaluate(() => sessionStorage.setItem('orderId', 'forgotten-order'))
  await page.reload()
  await expect(page.getByRole('button', { name: 'Pay' })).toBeEnabled()
  const renewed = await page.evaluate(() => sessionStorage.getItem('orderId'))
  expect(renewed).not.toBe('forgotten-order')
  expect(renewed).toMatch(/^[0-9a-f-]{36}$/)
})
`

describe("@card-jwe/checkout's README page on the shop-backend README's Express shop, from the tarballs", () => {
  it(
    'is one whole page script of at most 40 lines; built by the shop’s Vite, it pays a challenged card in Chromium',
    async () => {
      // The README's first example is the page script; a later one (saved cards) builds on it.
      const blocks = readmeBlocks(root).filter((b) => b.file === CHECKOUT_README)
      const script = blocks[0]!.code
      expect(script).toContain("from '@card-jwe/checkout'")
      expect(script.trimEnd().split('\n').length).toBeLessThanOrEqual(40)
      const readme = readFileSync(join(root, CHECKOUT_README), 'utf8')
      const markup = /^```html\n([\s\S]*?)^```$/m.exec(readme)![1]!
      const dir = join(project.dir, 'checkout-page')
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, 'checkout.ts'), script)
      writeFileSync(join(dir, 'checkout.css'), /^```css\n([\s\S]*?)^```$/m.exec(readme)![1]!)
      const body = markup
        .replace('src="assets/checkout.js"', 'src="./checkout.ts"')
        .replace('href="assets/checkout.css"', 'href="./checkout.css"')
      expect(body).toContain('href="./checkout.css"')
      writeFileSync(join(dir, 'index.html'), `<!doctype html>\n<html lang="en">\n<title>Checkout</title>\n${body}</html>\n`)
      writeFileSync(join(dir, 'vite.config.mjs'), "export default { build: { target: 'es2022', outDir: 'dist' }, logLevel: 'warn' }\n")
      runIn(project, 'vite', ['build', dir, '--config', join(dir, 'vite.config.mjs')])
      const e2e = join(project.dir, 'checkout-e2e')
      mkdirSync(e2e, { recursive: true })
      writeFileSync(join(e2e, 'checkout.spec.ts'), CHECKOUT_SPEC)
      writeFileSync(join(e2e, 'playwright.config.ts'), CONFIG)

      const { shopUrl, dataDir, shop } = await startReadmeShop('express', join(dir, 'dist'))
      expect(runPlaywright('checkout-e2e', shopUrl, 'checkout-readme-page.txt')).toMatch(/1 passed/)
      const ledger = new Database(join(dataDir, 'payments.sqlite'), { readonly: true })
      try {
        expect(ledger.prepare('SELECT state FROM attempts').all()).toEqual([{ state: 'authorised' }])
      } finally {
        ledger.close()
      }
      shop.kill('SIGTERM')
    },
    STEP_TIMEOUT,
  )
})
