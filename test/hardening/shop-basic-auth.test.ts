/**
 * The shop-side settings endpoints under guessing: a wrong key and a wrong secret get the
 * same 401, and repeated failures wait longer and longer (the delay is announced in a header, so
 * the test reads it instead of timing anything). The secrets are sealed at rest.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '@card-jwe/sandbox'
import { failureDelayMs, startShop, type RunningShop } from '@card-jwe/demo'
import { SHOP_SIDE_PATHS } from '@card-jwe/service-client'

let sandbox: RunningSandbox
let shop: RunningShop
let dir: string
const SETTINGS = SHOP_SIDE_PATHS.settings

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'card-jwe-basic-'))
  sandbox = await startSandbox({ dataDir: join(dir, 'sandbox'), log: () => {} })
  shop = await startShop({
    dataDir: join(dir, 'shop'),
    serviceBaseUrl: sandbox.baseUrl,
    certificatePem: sandbox.certificatePem,
    pollIntervalMs: 3_600_000,
    log: () => {},
  })
}, 60_000)
afterAll(async () => {
  await shop.close()
  await sandbox.close()
})

function pair(): { key: string; secret: string } {
  // The test reads the pair the way an attacker with the disk could: from the back end's ledger, sealed.
  const db = new Database(join(dir, 'shop', 'payments.sqlite'), { readonly: true })
  try {
    const rows = db.prepare("SELECT id, value FROM settings WHERE id IN ('basic_key', 'basic_secret', 'service_secret')").all() as Array<{
      id: string
      value: string
    }>
    expect(rows.map((r) => [r.id, r.value.startsWith('v1.')]).sort()).toEqual([
      ['basic_key', true],
      ['basic_secret', true],
      ['service_secret', true],
    ])
    return { key: rows.find((r) => r.id === 'basic_key')!.value, secret: rows.find((r) => r.id === 'basic_secret')!.value }
  } finally {
    db.close()
  }
}

const basic = (key: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` })
async function get(headers: Record<string, string>) {
  const response = await fetch(shop.url + SETTINGS, { headers })
  return {
    status: response.status,
    delay: response.headers.get('x-failure-delay-ms'),
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
  }
}

it('stores the Basic pair and service_secret sealed, with the key file outside the served folder and private', () => {
  const sealed = pair()
  expect(sealed.key).not.toMatch(/^[A-Za-z0-9_-]{32}$/) // what the shop generated is not what is stored
  const keyFile = statSync(join(dir, 'shop', 'secrets.key'))
  expect(keyFile.mode & 0o077).toBe(0)
  // The service's copy of service_secret is nowhere in the shop's database files, in plain text.
  const service = new Database(sandbox.databasePath, { readonly: true })
  const secret = (service.prepare('SELECT service_secret FROM shops').get() as { service_secret: string }).service_secret
  service.close()
  for (const file of ['shop.sqlite', 'shop.sqlite-wal', 'payments.sqlite', 'payments.sqlite-wal']) {
    const bytes = readFileSync(join(dir, 'shop', file), { flag: 'r' })
    expect(bytes.includes(Buffer.from(secret)), file).toBe(false)
  }
})

it('answers a wrong key and a wrong secret alike, and slows repeated failures down', async () => {
  const sealed = pair()
  const wrongKey = await get(basic('not-the-key', 'whatever'))
  const wrongSecret = await get(basic(sealed.key, 'not-the-secret'))
  expect([wrongKey.status, wrongSecret.status]).toEqual([401, 401])
  expect(wrongSecret.body).toBe(wrongKey.body)
  expect([wrongKey.delay, wrongSecret.delay]).toEqual([String(failureDelayMs(1)), String(failureDelayMs(2))])
  const third = await get({ authorization: 'Bearer x' })
  const fourth = await get({})
  expect([third.delay, fourth.delay].map(Number)).toEqual([failureDelayMs(3), failureDelayMs(4)])
  expect(fourth.retryAfter).toBe(String(Math.ceil(failureDelayMs(4) / 1000)))
  expect([1, 2, 3, 4, 5, 6, 7, 8].map(failureDelayMs)).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000, 8000])
})
