/**
 * Vitest global set-up: makes a test certificate set once per run, in Node, and hands it to every
 * test, browser ones included, through `inject('cardJweTestCertificates')`. No private key is ever
 * written to a file. Use it from a vitest config: `globalSetup: ['@card-jwe/testkit/vitest-global-setup']`.
 */
import type { TestProject } from 'vitest/node'
import { createTestCertificateSet, type TestCertificateSet } from '../certificates/test-certificate-set.js'

declare module 'vitest' {
  export interface ProvidedContext {
    cardJweTestCertificates: TestCertificateSet
  }
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide('cardJweTestCertificates', await createTestCertificateSet())
}
