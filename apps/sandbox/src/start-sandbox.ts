import { once } from 'node:events'
import { mkdir } from 'node:fs/promises'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { createAdaptorServer } from '@hono/node-server'
import { createGroupCommit, type GroupCommit, walPathOf } from '@card-jwe/sqlite-group-commit'
import { createCardDecryptor } from '@card-jwe/testkit/decryptor'
import { createKeysInUse } from './keys-in-use.js'
import { loadOrCreateCertificate } from './certificate.js'
import { createAccountStore } from './account-store.js'
import { createAnswerStore } from './answer-store.js'
import { openDatabase, openNonceConnection } from './db.js'
import { createMerchantStore } from './merchant-store.js'
import { createNonceStore } from './nonce-store.js'
import { createPaymentStore } from './payment-store.js'
import { createOrderTermsStore } from './order-terms-store.js'
import { createShopStore } from './shop-store.js'
import { createSandboxApp } from './http/sandbox-app.js'
import { seedReadyMadeShop, type ReadyMadeShop } from './handlers/registration.js'
import type { SandboxContext } from './context.js'

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  /** Folder for the database and the certificate; kept across restarts. */
  readonly dataDir: string
  /** 0 (default) takes a free port. */
  readonly port?: number
  /** Loopback only by default: the sandbox is for this machine. */
  readonly host?: string
  /** The sandbox's clock; defaults to the real time. */
  readonly now?: () => Date
  /** Where its log lines go (method, path, status; never card data); default stdout. */
  readonly log?: (line: string) => void
}

/** A started sandbox; see {@link startSandbox}. */
export interface RunningSandbox {
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string
  /** The test certificate the pages encrypt with, on disk. */
  readonly certificatePath: string
  /** The same certificate, PEM. */
  readonly certificatePem: string
  /** The test certificate's private key (PEM), for a test's reference decryptor. Test data only. */
  readonly privateKeyPem: string
  /** The same key on disk: `cardDecryptionKey` for `@card-jwe/testkit/playwright` against a sandbox started apart. */
  readonly privateKeyPath: string
  /** The certificate's SHA-256 fingerprint. */
  readonly fingerprint: string
  /** The SQLite file that keeps its state. */
  readonly databasePath: string
  /** Registers a shop directly, with an onboarded store, skipping the settings handshake (tests). */
  createReadyMadeShop(options?: { readonly shopUrl?: string }): ReadyMadeShop
  /** Stops serving, drops open connections, closes the database. */
  close(): Promise<void>
}

/** Starts the sandbox: certificate (made or reused), database (opened or created), HTTP on loopback. */
export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const now = options.now ?? (() => new Date())
  const log = options.log ?? ((line: string) => process.stdout.write(`[sandbox] ${line}\n`))
  await mkdir(options.dataDir, { recursive: true })
  const certificate = await loadOrCreateCertificate(options.dataDir, now())
  const databasePath = join(options.dataDir, 'sandbox.sqlite')
  const db = openDatabase(databasePath)
  const nonceConnection = openNonceConnection(databasePath)
  const decryptor = await createCardDecryptor(certificate.privateKeyPem, { now })
  // synchronous=NORMAL: a COMMIT hands the WAL to the OS; the group commit syncs it off the event loop.
  let group: GroupCommit
  try {
    group = createGroupCommit(db, { walPath: walPathOf(db), log })
  } catch (error) {
    nonceConnection.close()
    db.close()
    throw error
  }
  const context: { -readonly [K in keyof SandboxContext]: SandboxContext[K] } = {
    db,
    shops: createShopStore(db),
    accounts: createAccountStore(db),
    answers: createAnswerStore(db),
    merchants: createMerchantStore(db),
    payments: createPaymentStore(db),
    orderTerms: createOrderTermsStore(db),
    nonces: createNonceStore(nonceConnection),
    commit: group.write,
    syncWritten: group.syncWritten,
    decryptor,
    keysInUse: createKeysInUse(),
    baseUrl: '',
    now,
    log,
  }

  const host = options.host ?? '127.0.0.1'
  // Started inside a shop's own tests, so the process's global Request and Response are left as they are.
  const app = createSandboxApp(context)
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host, overrideGlobalObjects: false }) as Server
  try {
    // A port in use is an 'error' event, not a throw: once() rejects with it instead of the process ending.
    await once(server.listen(options.port ?? 0, host), 'listening')
  } catch (error) {
    // The listen error is the one to tell, whatever closing does.
    try {
      await group.close()
    } finally {
      nonceConnection.close()
      db.close()
    }
    throw error
  }
  const { address, port } = server.address() as AddressInfo
  context.baseUrl = `http://${address.includes(':') ? `[${address}]` : address}:${port}`

  return {
    baseUrl: context.baseUrl,
    certificatePath: certificate.certificatePath,
    certificatePem: certificate.certificatePem,
    privateKeyPem: certificate.privateKeyPem,
    privateKeyPath: certificate.privateKeyPath,
    fingerprint: certificate.fingerprint,
    databasePath,
    createReadyMadeShop: (shopOptions = {}) => seedReadyMadeShop(context, shopOptions.shopUrl ?? 'http://127.0.0.1'),
    async close() {
      // Close, then drop every connection at once: a browser's keep-alive socket would hold close() open.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
      await group.close()
      nonceConnection.close()
      db.close()
    },
  }
}
