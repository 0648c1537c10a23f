/**
 * The test certificates the global set-up (`@card-jwe/testkit/vitest-global-setup`) made for this
 * run, typed. Importing this module is what brings the `inject('cardJweTestCertificates')` type
 * into a user's test: the augmentation lives here, beside the call. Safe in browser tests: it
 * imports only `vitest` and types (no private-key or X.509 code).
 */
import { inject } from 'vitest'
import type { TestCertificateSet } from '../certificates/test-certificate-set.js'

declare module 'vitest' {
  export interface ProvidedContext {
    cardJweTestCertificates: TestCertificateSet
  }
}

/** `{ valid, otherValid, expired, notYetValid, ecKey, rsa1024 }`, the same for every test of the run. */
export function testCertificates(): TestCertificateSet {
  return inject('cardJweTestCertificates')
}
