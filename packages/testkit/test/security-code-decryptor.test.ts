import { describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCardDecryptor, DecryptionError, SERVICE_MESSAGES, type CardDecryptor } from '@card-jwe/testkit/decryptor'
import type {} from '@card-jwe/testkit/vitest-global-setup'
import { encryptSecurityCode, importCertificate } from 'card-jwe'
import { cliInProcess } from './support/cli-in-process.js'
import { buildJwe, cardPayload } from './support/build-jwe.js'

const { valid } = inject('cardJweTestCertificates')
const decryptor: CardDecryptor = await createCardDecryptor(valid.privateKeyPem)
const pem = valid.certificatePem
const now = () => new Date().toISOString()

async function refusal(jwe: string, codeSize?: 3 | 4): Promise<DecryptionError> {
  try {
    await decryptor.decryptSecurityCode(jwe, codeSize === undefined ? {} : { codeSize })
  } catch (error) {
    expect(error).toBeInstanceOf(DecryptionError)
    return error as DecryptionError
  }
  throw new Error('expected the decryptor to refuse')
}

describe('reference decryptor: a saved card’s security-code JWE', () => {
  it('opens exactly {cvc, generationtime} with the card JWE’s header', async () => {
    const generationtime = now()
    const jwe = await buildJwe(pem, JSON.stringify({ cvc: '7373', generationtime }))
    const { header, securityCode } = await decryptor.decryptSecurityCode(jwe, { codeSize: 4 })
    expect(header).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
    expect(securityCode).toEqual({ cvc: '7373', generationtime })
  })

  it('refuses a code JWE that carries anything but the code and its time, naming the field only', async () => {
    for (const extra of [{ number: '4111111145551142' }, { expiryMonth: '03' }, { holderName: 'A' }, { 'x-1': 1 }]) {
      const jwe = await buildJwe(pem, JSON.stringify({ cvc: '737', generationtime: now(), ...extra }))
      const error = await refusal(jwe)
      expect(error.message).toBe(SERVICE_MESSAGES.INVALID_CARD_DETAILS)
      expect(error.detail).toMatch(/a security-code JWE carries only cvc and generationtime$/)
      expect(error.detail).not.toContain('4111')
    }
  })

  it('refuses a whole card as a code JWE', async () => {
    const error = await refusal(await buildJwe(pem, cardPayload()))
    expect(error.code).toBe('INVALID_CARD_DETAILS')
  })

  it('holds the code to the saved card’s brand’s length when told it', async () => {
    const four = await buildJwe(pem, JSON.stringify({ cvc: '7373', generationtime: now() }))
    expect((await refusal(four, 3)).detail).toBe('cvc: must be 3 digits')
    const three = await buildJwe(pem, JSON.stringify({ cvc: '737', generationtime: now() }))
    expect((await refusal(three, 4)).detail).toBe('cvc: must be 4 digits')
    for (const cvc of [undefined, '', '73', '73737', '7a7', 737]) {
      const bad = await buildJwe(pem, JSON.stringify({ cvc, generationtime: now() }))
      expect((await refusal(bad)).detail).toBe('cvc: must be 3 or 4 digits')
    }
  })

  it('applies the time window and the generationtime format as for a card', async () => {
    const old = await buildJwe(pem, JSON.stringify({ cvc: '737', generationtime: new Date(Date.now() - 25 * 3600_000).toISOString() }))
    expect((await refusal(old)).code).toBe('NO_LONGER_VALID')
    const local = await buildJwe(pem, JSON.stringify({ cvc: '737', generationtime: '2026-01-01T10:00:00+01:00' }))
    expect((await refusal(local)).code).toBe('INVALID_CARD_DETAILS')
    expect((await refusal('not.a.jwe')).code).toBe('UNDECRYPTABLE')
  })
})

describe('card-jwe CLI: decrypt --code-only', () => {
  it('prints the code payload of card-jwe’s code JWE, and refuses it without the flag', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'card-jwe-cli-code-'))
    const keyPath = join(dir, 'key.pem')
    writeFileSync(keyPath, valid.privateKeyPem)
    const jwe = await encryptSecurityCode({ securityCode: '737', brand: 'visa' }, await importCertificate(pem))
    const opened = await cliInProcess(['decrypt', '--key', keyPath, '--code-only'], jwe)
    expect(opened.code).toBe(0)
    expect(Object.keys(JSON.parse(opened.stdout))).toEqual(['cvc', 'generationtime'])
    expect(JSON.parse(opened.stdout).cvc).toBe('737')
    expect(await cliInProcess(['decrypt', '--key', keyPath], jwe)).toEqual({
      code: 1,
      stdout: '',
      stderr: `${SERVICE_MESSAGES.INVALID_CARD_DETAILS}\n`,
    })
    const card = await buildJwe(pem, cardPayload())
    const explained = await cliInProcess(['decrypt', '--key', keyPath, '--code-only', '--explain'], card)
    expect(explained.code).toBe(1)
    expect(explained.stderr).toMatch(/carries only cvc and generationtime\)\n$/)
    expect(explained.stderr).not.toMatch(/4111|737/)
  })
})
