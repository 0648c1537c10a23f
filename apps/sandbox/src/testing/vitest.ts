/**
 * The run's sandbox as a test sees it, browser tests included: `testSandbox()` reads what the
 * global set-up (`@card-jwe/sandbox/vitest-global-setup`) provided. Imports only `vitest` and types.
 */
import { inject } from 'vitest'
import type { ReadyMadeShop } from '../handlers/registration.js'

/** What a test gets of the run's sandbox: no private key (that stays with the runner's commands). */
export interface ProvidedSandbox {
  /** The service's base URL. */
  readonly baseUrl: string
  /** The certificate the page encrypts with (PEM). */
  readonly certificatePem: string
  /** Its SHA-256 fingerprint. */
  readonly fingerprint: string
  /** A registered shop with an onboarded store. */
  readonly readyMadeShop: ReadyMadeShop
}

declare module 'vitest' {
  export interface ProvidedContext {
    cardJweSandbox: ProvidedSandbox
  }
}

/** The run's sandbox: base URL, certificate, fingerprint and ready-made shop. */
export function testSandbox(): ProvidedSandbox {
  return inject('cardJweSandbox')
}
