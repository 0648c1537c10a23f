/**
 * The sandbox's certificate follows the sandbox's own clock: made valid from its `now`,
 * reused across restarts while valid at that moment, and made again when it has run out or is not
 * valid yet, as when a data folder made on one date is opened with the clock elsewhere.
 */
import { describe, expect, it } from 'vitest'
import { importCertificate } from 'card-jwe'
import { inspectCertificate } from '@card-jwe/testkit'
import { startSandbox } from '@card-jwe/sandbox'
import { freshDataDir } from './support/sandbox-fixture.js'

const DAY = 86_400_000

async function certificateAt(dataDir: string, at: Date) {
  const sandbox = await startSandbox({ dataDir, now: () => at, log: () => {} })
  await sandbox.close()
  return { fingerprint: sandbox.fingerprint, pem: sandbox.certificatePem, summary: await inspectCertificate(sandbox.certificatePem) }
}

describe('sandbox certificate and clock', () => {
  it('is valid at the sandbox’s own moment, whatever the wall clock says', async () => {
    const at = new Date('2041-03-05T08:00:00Z')
    const made = await certificateAt(freshDataDir(), at)
    expect(Date.parse(made.summary.notBefore)).toBe(at.getTime() - DAY)
    expect(Date.parse(made.summary.notAfter)).toBe(at.getTime() + 365 * DAY)
    await expect(importCertificate(made.pem, { now: () => at })).resolves.toBeDefined()
  })

  it('is reused while valid, and made again when it is not valid yet or about to run out', async () => {
    const dataDir = freshDataDir()
    const first = await certificateAt(dataDir, new Date('2030-06-01T00:00:00Z'))
    expect((await certificateAt(dataDir, new Date('2030-12-01T00:00:00Z'))).fingerprint).toBe(first.fingerprint)
    // Before its notBefore: a folder made "later" opened with an earlier clock.
    const earlier = await certificateAt(dataDir, new Date('2029-01-01T00:00:00Z'))
    expect(earlier.fingerprint).not.toBe(first.fingerprint)
    // Less than a day left.
    const nearEnd = new Date(Date.parse(earlier.summary.notAfter) - DAY / 2)
    expect((await certificateAt(dataDir, nearEnd)).fingerprint).not.toBe(earlier.fingerprint)
  })
})
