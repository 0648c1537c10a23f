/**
 * Cross-checks with JOSE implementations we did not write (Debian packages): our JWEs must open
 * in python3-jwcrypto, Perl Crypt::JWT and python3-authlib, with the header and payload formats
 * checked on their side; their JWEs, current and legacy algorithms, must open in our decryptor.
 * `scripts/setup.sh` installs the peers; a missing peer fails the run, it is never skipped.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { encryptCard, encryptSecurityCode, importCertificate, type EncryptionCertificate } from 'card-jwe'
import { createCardDecryptor, SERVICE_MESSAGES, type CardDecryptor } from '@card-jwe/testkit/decryptor'
import { findTestCard, type TestCard } from '@card-jwe/testkit/test-cards'
import { encryptCardBatch } from '@card-jwe/testkit'
import type {} from '@card-jwe/testkit/vitest-global-setup'

/** Debian's interpreter, where the python3-* packages live (the python3 on PATH may be another). */
const PYTHON = process.env.INTEROP_PYTHON ?? '/usr/bin/python3'
const PERL = process.env.INTEROP_PERL ?? '/usr/bin/perl'
const peer = (name: string) => fileURLToPath(new URL(`./peers/${name}`, import.meta.url))
const SERVICE_HEADER = '{"alg":"RSA-OAEP-256","enc":"A256GCM","version":"1"}'

function run(command: string, args: string[], stdin: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { timeout: 20_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args[0]} failed: ${stderr || error.message}`)) : resolve(stdout.trim()),
    )
    child.stdin!.end(stdin)
  })
}

const { valid } = inject('cardJweTestCertificates')
const dir = mkdtempSync(join(tmpdir(), 'card-jwe-interop-'))
const keyPath = join(dir, 'private-key.pem')
const certificatePath = join(dir, 'certificate.pem')
writeFileSync(keyPath, valid.privateKeyPem, { mode: 0o600 })
writeFileSync(certificatePath, valid.certificatePem)

const cards: TestCard[] = [
  findTestCard({ brand: 'visa', threeDSecure: 'none' }),
  findTestCard({ brand: 'mastercard', threeDSecure: 'challenge' }),
  findTestCard({ brand: 'american-express', threeDSecure: 'none' }),
  findTestCard({ brand: 'bancontact' }),
]
const strictPayload = (c: TestCard) => ({
  number: c.number,
  expiryMonth: c.expiryMonth,
  expiryYear: c.expiryYear,
  ...(c.securityCode === '' ? {} : { cvc: c.securityCode }),
})

let certificate: EncryptionCertificate
let decryptor: CardDecryptor

beforeAll(async () => {
  for (const [tool, hint] of [
    [PYTHON, 'python3-jwcrypto python3-authlib'],
    [PERL, 'libcrypt-jwt-perl'],
  ] as const) {
    expect(existsSync(tool), `${tool} is missing: apt-get install ${hint} (scripts/setup.sh does it)`).toBe(true)
  }
  certificate = await importCertificate(valid.certificatePem)
  decryptor = await createCardDecryptor(valid.privateKeyPem)
})

describe('our JWE, opened by python3-jwcrypto', () => {
  it.each(cards.map((c) => [c.label, c] as const))('%s', async (_, card) => {
    const jwe = await encryptCard({ ...card, holderName: 'Zo\u00eb Shopper' }, certificate)
    const seen = JSON.parse(await run(PYTHON, [peer('jwcrypto_peer.py'), 'decrypt', keyPath], jwe))
    expect(seen.protectedRaw).toBe(SERVICE_HEADER)
    expect(seen.header).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
    expect(seen.segments).toBe(5)
    expect(seen.padding).toBe(false)
    expect(seen.payload).toEqual({ ...strictPayload(card), holderName: 'Zo\u00eb Shopper', generationtime: expect.any(String) })
    expect(seen.checks).toEqual({
      number: true,
      expiryMonth: true,
      expiryYear: true,
      cvc: card.securityCode !== '',
      generationtime: true,
    })
  })
})

describe('the testkit batch JWE (Node crypto), opened by python3-jwcrypto', () => {
  it('has the service header and the strict payload on their side', async () => {
    const [jwe] = await encryptCardBatch([cards[2]!], valid.certificatePem, { threads: 1 })
    const seen = JSON.parse(await run(PYTHON, [peer('jwcrypto_peer.py'), 'decrypt', keyPath], jwe!))
    expect(seen.protectedRaw).toBe(SERVICE_HEADER)
    expect(seen.payload).toEqual({ ...strictPayload(cards[2]!), generationtime: expect.any(String) })
    expect(Object.values(seen.checks).every(Boolean)).toBe(true)
  })
})

describe('our JWE, opened by Perl Crypt::JWT', () => {
  it.each(cards.map((c) => [c.label, c] as const))('%s', async (_, card) => {
    const jwe = await encryptCard(card, certificate)
    const seen = JSON.parse(await run(PERL, [peer('crypt_jwt_peer.pl'), 'decrypt', keyPath], jwe))
    expect(seen.header).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
    expect(seen.payload).toEqual({ ...strictPayload(card), generationtime: expect.stringMatching(/Z$/) })
  })
})

describe('our JWE, opened by python3-authlib', () => {
  it.each(cards.map((c) => [c.label, c] as const))('%s', async (_, card) => {
    const seen = JSON.parse(await run(PYTHON, [peer('authlib_peer.py'), 'decrypt', keyPath], await encryptCard(card, certificate)))
    expect(seen.header).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
    expect(seen.payload).toEqual({ ...strictPayload(card), generationtime: expect.any(String) })
  })
})

describe.each([
  ['python3-jwcrypto', PYTHON, 'jwcrypto_peer.py'],
  ['Perl Crypt::JWT', PERL, 'crypt_jwt_peer.pl'],
  ['python3-authlib', PYTHON, 'authlib_peer.py'],
])('a saved card’s security-code JWE, opened by %s', (_, tool, script) => {
  it.each([
    ['visa', '737'],
    ['amex', '7373'],
  ])('%s: the service header and a payload of only cvc and generationtime', async (brand, securityCode) => {
    const jwe = await encryptSecurityCode({ securityCode, brand }, certificate)
    const seen = JSON.parse(await run(tool, [peer(script), 'decrypt', keyPath], jwe))
    expect(seen.header).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
    expect(seen.payload).toEqual({
      cvc: securityCode,
      generationtime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    })
  })
})

const algorithms = [
  ['RSA-OAEP-256', 'A256GCM'],
  ['RSA-OAEP', 'A256GCM'],
  ['RSA-OAEP', 'A128CBC-HS256'],
  ['RSA-OAEP-256', 'A128CBC-HS256'],
] as const

describe.each([
  ['python3-jwcrypto', PYTHON, 'jwcrypto_peer.py'],
  ['Perl Crypt::JWT', PERL, 'crypt_jwt_peer.pl'],
])('%s JWE, opened by our decryptor', (_, tool, script) => {
  it.each(algorithms)('%s with %s', async (alg, enc) => {
    const payload = JSON.stringify({ ...strictPayload(cards[2]!), generationtime: new Date().toISOString() })
    const jwe = await run(tool, [peer(script), 'encrypt', certificatePath, alg, enc], payload)
    const { header, card } = await decryptor.decrypt(jwe)
    expect(header).toMatchObject({ alg, enc, version: '1' })
    expect(card).toMatchObject(strictPayload(cards[2]!))
  })

  it('is refused when it uses an algorithm the service does not take (A128GCM)', async () => {
    const payload = JSON.stringify({ ...strictPayload(cards[0]!), generationtime: new Date().toISOString() })
    const jwe = await run(tool, [peer(script), 'encrypt', certificatePath, 'RSA-OAEP-256', 'A128GCM'], payload)
    await expect(decryptor.decrypt(jwe)).rejects.toThrow(SERVICE_MESSAGES.UNDECRYPTABLE)
  })

  it('is refused as stale when its generationtime is old', async () => {
    const payload = JSON.stringify({ ...strictPayload(cards[0]!), generationtime: new Date(Date.now() - 25 * 3_600_000).toISOString() })
    const jwe = await run(tool, [peer(script), 'encrypt', certificatePath, 'RSA-OAEP-256', 'A256GCM'], payload)
    await expect(decryptor.decrypt(jwe)).rejects.toThrow(SERVICE_MESSAGES.NO_LONGER_VALID)
  })
})
