/**
 * Vitest global set-up: makes a test certificate set once per run, in Node, and hands it to every
 * test, browser ones included, through `testCertificates()` from `@card-jwe/testkit/vitest`. No
 * private key is ever written to a file. Use it from a vitest config:
 * `globalSetup: ['@card-jwe/testkit/vitest-global-setup']`.
 */
import type { TestProject } from 'vitest/node'
import { createTestCertificateSet } from '../certificates/test-certificate-set.js'
// The `cardJweTestCertificates` type; tests read it with testCertificates() from '@card-jwe/testkit/vitest'.
import type {} from './test-certificates.js'

/** Makes the set and provides it as `cardJweTestCertificates` to the run's tests. */
export default async function setup(project: TestProject): Promise<void> {
  project.provide('cardJweTestCertificates', await createTestCertificateSet())
}
