import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ReadyMadeShop } from '../handlers/registration.js'
import { startSandbox, type RunningSandbox } from '../start-sandbox.js'

/** A sandbox for one test worker or run: what the shop under test is configured with. */
export interface TestSandbox {
  /** The service's base URL, on loopback. */
  readonly baseUrl: string
  /** The certificate the page encrypts with (PEM). */
  readonly certificatePem: string
  /** Where it lies on disk. */
  readonly certificatePath: string
  /** SHA-256 fingerprint of the certificate, as the shop pins it. */
  readonly fingerprint: string
  /** The certificate's private key (PEM): for the reference decryptor in tests, nothing else. */
  readonly privateKeyPem: string
  /** A registered shop with an onboarded store, for a shop under test that has no registration step. */
  readonly readyMadeShop: ReadyMadeShop
  /** The fresh data folder (database, certificate); removed by `close`. */
  readonly dataDir: string
  /** The running sandbox itself, for anything more. */
  readonly sandbox: RunningSandbox
  /** Stops the sandbox and removes its data folder. */
  close(): Promise<void>
}

/**
 * Starts a sandbox on a free loopback port in a fresh data folder, with a ready-made shop and store;
 * `now` is its clock, for a test that moves it (a delayed capture falling due).
 */
export async function startTestSandbox(
  options: { readonly log?: (line: string) => void; readonly now?: () => Date } = {},
): Promise<TestSandbox> {
  const dataDir = await mkdtemp(join(tmpdir(), 'card-jwe-test-sandbox-'))
  const sandbox = await startSandbox({ dataDir, port: 0, log: options.log ?? (() => {}), ...(options.now ? { now: options.now } : {}) })
  return Object.freeze({
    baseUrl: sandbox.baseUrl,
    certificatePem: sandbox.certificatePem,
    certificatePath: sandbox.certificatePath,
    fingerprint: sandbox.fingerprint,
    privateKeyPem: sandbox.privateKeyPem,
    readyMadeShop: sandbox.createReadyMadeShop(),
    dataDir,
    sandbox,
    async close() {
      await sandbox.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  })
}
