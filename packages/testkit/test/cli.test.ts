import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { encryptCard, importCertificate } from 'card-jwe'
import { SERVICE_MESSAGES } from '@card-jwe/testkit/decryptor'
import { TEST_EXPIRY } from '@card-jwe/testkit/test-cards'
import type {} from '@card-jwe/testkit/vitest-global-setup'
import { cliInProcess, type Run } from './support/cli-in-process.js'
import { buildJwe, cardPayload } from './support/build-jwe.js'

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
const { valid, ecKey } = inject('cardJweTestCertificates')

/** The CLI as a user runs it from the repo root: `pnpm exec card-jwe ...`. */
function cli(args: string[], stdin = ''): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile('pnpm', ['exec', 'card-jwe', ...args], { cwd: repoRoot }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
    child.stdin!.end(stdin)
  })
}

function workDir(): string {
  return mkdtempSync(join(tmpdir(), 'card-jwe-cli-'))
}

describe('card-jwe CLI', () => {
  it('is built (pnpm build) so that pnpm exec card-jwe runs', () => {
    expect(existsSync(join(repoRoot, 'packages/testkit/dist/cli/main.js')), 'run `pnpm build` first').toBe(true)
  })

  it('round-trips: cert, inspect, encrypt, decrypt', async () => {
    const dir = workDir()
    const made = await cli(['cert', '--out', dir, '--days', '30'])
    expect(made.code).toBe(0)
    const certificatePath = join(dir, 'certificate.pem')
    const keyPath = join(dir, 'private-key.pem')
    expect(readFileSync(certificatePath, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/)
    expect(readFileSync(keyPath, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/)
    expect(statSync(keyPath).mode & 0o777).toBe(0o600)

    const inspected = await cli(['inspect', '--cert', certificatePath])
    const summary = JSON.parse(inspected.stdout)
    expect(summary).toMatchObject({ keyAlgorithm: 'RSA', keyBits: 2048, subject: expect.stringContaining('CN=card-jwe test certificate') })
    expect(made.stdout).toContain(summary.fingerprint)
    const days = (Date.parse(summary.notAfter) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThan(30.1)

    const typed = JSON.stringify({
      number: '4111 1111-4555 1142',
      expiryMonth: '3',
      expiryYear: TEST_EXPIRY.year.slice(2),
      securityCode: '737',
      holderName: 'A. Shopper',
    })
    const encrypted = await cli(['encrypt', '--cert', certificatePath], typed)
    expect(encrypted.code).toBe(0)
    expect(encrypted.stdout.trim().split('.')).toHaveLength(5)

    const decrypted = await cli(['decrypt', '--key', keyPath], encrypted.stdout)
    expect(decrypted.code).toBe(0)
    const card = JSON.parse(decrypted.stdout)
    expect(card).toMatchObject({
      number: '4111111145551142',
      expiryMonth: '03',
      expiryYear: TEST_EXPIRY.year,
      cvc: '737',
      holderName: 'A. Shopper',
    })
    expect(Math.abs(Date.parse(card.generationtime) - Date.now())).toBeLessThan(60_000)
  })

  it('checks a pinned fingerprint', async () => {
    const dir = workDir()
    writeFileSync(join(dir, 'c.pem'), valid.certificatePem)
    const card = JSON.stringify({ number: '4111111145551142', expiryMonth: '03', expiryYear: TEST_EXPIRY.year, securityCode: '737' })
    expect((await cli(['encrypt', '--cert', join(dir, 'c.pem'), '--fingerprint', valid.fingerprint], card)).code).toBe(0)
    const wrong = await cli(['encrypt', '--cert', join(dir, 'c.pem'), '--fingerprint', 'ab'.repeat(32)], card)
    expect(wrong).toMatchObject({ code: 1, stdout: '' })
    expect(wrong.stderr).toContain('ERR_CERTIFICATE_FINGERPRINT')
  })

  it('prints exactly the service messages on stderr and exits 1', async () => {
    const dir = workDir()
    const keyPath = join(dir, 'key.pem')
    writeFileSync(keyPath, valid.privateKeyPem)
    const certificate = await importCertificate(valid.certificatePem)
    const stale = await encryptCard(
      { number: '4111111145551142', expiryMonth: '03', expiryYear: TEST_EXPIRY.year, securityCode: '737' },
      certificate,
      { now: () => new Date(Date.now() - 7200_000) },
    )
    const unpadded = await buildJwe(valid.certificatePem, cardPayload({ expiryMonth: '3' }))
    const expectations: Array<[string, string[], string]> = [
      ['not.a.jwe', [], SERVICE_MESSAGES.UNDECRYPTABLE],
      [stale, ['--max-age', '3600'], SERVICE_MESSAGES.NO_LONGER_VALID],
      [unpadded, [], SERVICE_MESSAGES.INVALID_CARD_DETAILS],
    ]
    for (const [jwe, extra, message] of expectations) {
      const run = await cli(['decrypt', '--key', keyPath, ...extra], jwe)
      expect(run).toEqual({ code: 1, stdout: '', stderr: `${message}\n` })
    }
    const explained = await cli(['decrypt', '--key', keyPath, '--explain'], unpadded)
    expect(explained.stderr).toBe(`${SERVICE_MESSAGES.INVALID_CARD_DETAILS}\n(expiryMonth: must be "01" to "12")\n`)
  })

  it('explains bad input without echoing card data', async () => {
    const dir = workDir()
    const ecPath = join(dir, 'ec.pem')
    writeFileSync(ecPath, ecKey.certificatePem)
    writeFileSync(join(dir, 'c.pem'), valid.certificatePem)
    const card = JSON.stringify({ number: '4111111145551142', expiryMonth: '03', expiryYear: TEST_EXPIRY.year, securityCode: '737' })
    const runs = await Promise.all([
      cli(['encrypt', '--cert', join(dir, 'missing.pem')], card),
      cli(['encrypt', '--cert', ecPath], card),
      cli(
        ['encrypt', '--cert', join(dir, 'c.pem')],
        JSON.stringify({ number: '4111111145551143', expiryMonth: '3', expiryYear: TEST_EXPIRY.year.slice(2), securityCode: '73' }),
      ),
      cli(['encrypt', '--cert', join(dir, 'c.pem')], '{"number": 4111111145551142, '),
      cli(['encrypt', '--cert', join(dir, 'c.pem')], '{"number": 4111111145551142}'),
      cli(['decrypt', '--key', join(dir, 'c.pem')], 'x'),
    ])
    expect(runs.map((r) => r.code)).toEqual([1, 1, 1, 1, 1, 1])
    expect(runs[0]!.stderr).toBe(`card-jwe: cannot read --cert ${join(dir, 'missing.pem')} (ENOENT)\n`)
    expect(runs[1]!.stderr).toContain('[ERR_CERTIFICATE_KEY_TYPE]')
    expect(runs[2]!.stderr).toBe('card-jwe: invalid card: number (luhn), securityCode (length) [ERR_CARD_INVALID]\n')
    expect(runs[3]!.stderr).toContain('not valid JSON')
    expect(runs[4]!.stderr).toContain('number: must be a JSON string')
    expect(runs[5]!.stderr).toContain('private key: expected PKCS#8 PEM')
    for (const run of runs) expect(run.stdout + run.stderr).not.toMatch(/411111|455511|551142/)
  })

  it('answers usage mistakes with exit code 2', async () => {
    for (const args of [[], ['frobnicate'], ['cert'], ['encrypt'], ['cert', '--out', '/tmp/x', '--days', 'many'], ['decrypt', '--nope']]) {
      const run = await cliInProcess(args, '')
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stderr).toMatch(/^card-jwe: /)
    }
    expect((await cliInProcess(['--help'], '')).stdout).toContain('card-jwe encrypt --cert FILE')
  })

  it('prints its version, and names an unknown command unless it could be card data', async () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'packages/testkit/package.json'), 'utf8')) as { version: string }
    expect(await cliInProcess(['--version'], '')).toMatchObject({ code: 0, stdout: `${pkg.version}\n` })
    expect((await cli(['-v'])).stdout).toBe(`${pkg.version}\n`)
    const unknown = await cliInProcess(['encrpyt'], '')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/^card-jwe: unknown command "encrpyt"\nusage:/)
    const digits = await cliInProcess(['4111111145551142'], '')
    expect(digits.stderr).toMatch(/^card-jwe: unknown command\nusage:/)
    expect(digits.stderr).not.toMatch(/411111|551142/)
  })

  it('does not replace an existing certificate or key unless told to (--force)', async () => {
    const dir = workDir()
    expect((await cliInProcess(['cert', '--out', dir], '')).code).toBe(0)
    const key = readFileSync(join(dir, 'private-key.pem'), 'utf8')
    const again = await cliInProcess(['cert', '--out', dir], '')
    expect(again.code).toBe(1)
    expect(again.stderr).toBe(
      `card-jwe: ${join(dir, 'certificate.pem')} and ${join(dir, 'private-key.pem')} already exist; pass --force to replace\n`,
    )
    expect(readFileSync(join(dir, 'private-key.pem'), 'utf8')).toBe(key)
    expect((await cliInProcess(['cert', '--out', dir, '--force'], '')).code).toBe(0)
    expect(readFileSync(join(dir, 'private-key.pem'), 'utf8')).not.toBe(key)
    expect(statSync(join(dir, 'private-key.pem')).mode & 0o777).toBe(0o600)
  })

  it('never prints six digits of an input card it refuses', async () => {
    const dir = workDir()
    const certificatePath = join(dir, 'c.pem')
    writeFileSync(certificatePath, valid.certificatePem)
    const digits = fc.stringMatching(/^[0-9]{13,19}$/)
    const input = fc.record({
      number: fc.oneof(
        digits,
        digits.map((d) => `${d.slice(0, 4)} ${d.slice(4)}x`),
      ),
      expiryMonth: fc.constantFrom('3', '13', '0', 'x'),
      expiryYear: fc.constantFrom('30', '3', '1999'),
      securityCode: fc.constantFrom('737', '1', '12345'),
    })
    await fc.assert(
      fc.asyncProperty(input, fc.boolean(), async (card, breakJson) => {
        const text = JSON.stringify(card)
        const run = await cliInProcess(['encrypt', '--cert', certificatePath], breakJson ? text.slice(0, -1) : text)
        if (run.code === 0) return
        const cardDigits = card.number.replace(/\D/g, '')
        for (const run6 of (run.stdout + run.stderr).match(/[0-9]{6,}/g) ?? []) {
          for (let i = 0; i + 6 <= run6.length; i++) expect(cardDigits).not.toContain(run6.slice(i, i + 6))
        }
      }),
      { numRuns: 200, seed: 20261121 },
    )
  })
})
