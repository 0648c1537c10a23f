/**
 * Two or more shop instances as real processes on one ledger (a fresh PostgreSQL database or SQLite
 * file per test), each with a proxy of its own to the sandbox; everything started is stopped after
 * each test of the file that calls {@link sharedLedgerInstances}.
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findTestCard, type TestCard } from '@card-jwe/testkit/test-cards'
import { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
import { afterEach, expect } from 'vitest'
import { generateSecretKey } from '../../src/index.js'
import { type InstanceOptions, type InstanceProcess, spawnInstance } from './instances.js'
import { freshDatabase, postgres } from './postgres.js'
import { startServiceProxy } from './service-proxy.js'
import type { World } from './shop.js'

/** Where the instances keep their ledger. */
export type Ledger = Pick<InstanceOptions, 'databaseUrl' | 'sqlitePath'>

/** The kinds of ledger this machine can share: PostgreSQL only where a server runs. */
export type LedgerKind = 'PostgreSQL' | 'SQLite'

/** The proxy may hold calls back, and a loaded machine must not turn that wait into a timeout. */
const PATIENT = { deadlineMs: 15_000, attemptTimeoutMs: 10_000 }

const repo = fileURLToPath(new URL('../../../../', import.meta.url))

/** Builds the package the instances run (their `dist`). */
export function buildInstancePackage(): void {
  execFileSync('pnpm', ['exec', 'tsc', '-b', 'packages/shop-backend'], { cwd: repo, stdio: 'pipe' })
}

/**
 * The order `orderId` (28.00, reference `order-<orderId>`) paid through `instance` with a card
 * encrypted as a page does, `extra` added to the body; checked Authorised. Answers the card.
 */
export async function payByCard(
  world: World,
  instance: InstanceProcess,
  orderId: string,
  extra: Record<string, unknown> = {},
): Promise<TestCard> {
  const certificate = await importCertificate(world.sandbox.certificatePem)
  const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
  const paid = await instance.post('/api/payments', {
    orderId,
    reference: `order-${orderId}`,
    amount: { currency: 'EUR', value: 2800 },
    paymentMethod: toPaymentMethod(await encryptCard(card, certificate)),
    ...extra,
  })
  expect(paid).toEqual({ status: 200, body: { resultCode: 'Authorised' } })
  return card
}

/** The helpers for one test file; `name` names its databases and folders. */
export function sharedLedgerInstances(name: string) {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!()
  })
  const newLedger: Record<LedgerKind, () => Promise<Ledger>> = {
    PostgreSQL: async () => {
      const database = await freshDatabase(name.replaceAll('-', '_'))
      cleanups.push(() => database.drop())
      return { databaseUrl: database.url }
    },
    SQLite: async () => {
      const dir = await mkdtemp(join(tmpdir(), `${name}-`))
      cleanups.push(() => rm(dir, { recursive: true, force: true }))
      return { sqlitePath: join(dir, 'payments.sqlite') }
    },
  }
  return {
    /** The ledgers to run on here. */
    kinds: (['PostgreSQL', 'SQLite'] as const).filter((kind) => kind !== 'PostgreSQL' || postgres.missing === undefined),
    /** `world` stopped after the test too. */
    keep(world: World): World {
      cleanups.push(() => world.close())
      return world
    },
    /** A fresh ledger of `kind` and one secret key, for instances to share. */
    async shared(kind: LedgerKind) {
      return { ledger: await newLedger[kind](), secretKey: Buffer.from(generateSecretKey()).toString('base64') }
    },
    /** One instance on the shared ledger, through a proxy of its own. */
    async startInstance(instance: string, world: World, { ledger, secretKey }: { ledger: Ledger; secretKey: string }) {
      const proxy = await startServiceProxy(world.sandbox.baseUrl)
      cleanups.push(() => proxy.close())
      const started = await spawnInstance(instance, {
        ...ledger,
        serviceUrl: proxy.baseUrl,
        secretKey,
        sandbox: world.sandbox,
        timeouts: PATIENT,
      })
      cleanups.push(() => started.kill())
      return { ...started, proxy }
    },
  }
}
