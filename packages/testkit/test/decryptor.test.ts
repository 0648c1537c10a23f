import { describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import {
  createCardDecryptor,
  DecryptionError,
  encodeBase64url,
  MAX_JWE_LENGTH,
  SERVICE_MESSAGES,
  type CardDecryptor,
} from '@card-jwe/testkit/decryptor'
import { createTestCertificate } from '@card-jwe/testkit'
import type {} from '@card-jwe/testkit/vitest-global-setup'
import { buildJwe, cardPayload } from './support/build-jwe.js'

const { valid } = inject('cardJweTestCertificates')
const decryptor: CardDecryptor = await createCardDecryptor(valid.privateKeyPem)
const pem = valid.certificatePem

async function refusal(jwe: string, using: CardDecryptor = decryptor): Promise<DecryptionError> {
  try {
    await using.decrypt(jwe)
  } catch (error) {
    expect(error).toBeInstanceOf(DecryptionError)
    return error as DecryptionError
  }
  throw new Error('expected the decryptor to refuse')
}

describe('reference decryptor: what it accepts', () => {
  it.each([
    ['RSA-OAEP-256', 'A256GCM'],
    ['RSA-OAEP', 'A256GCM'],
    ['RSA-OAEP-256', 'A128CBC-HS256'],
    ['RSA-OAEP', 'A128CBC-HS256'],
  ] as const)('opens %s with %s', async (alg, enc) => {
    const { header, card } = await decryptor.decrypt(await buildJwe(pem, cardPayload(), { alg, enc }))
    expect(header).toMatchObject({ alg, enc })
    expect(card.number).toBe('4111111145551142')
  })

  it('refuses a card JWE whose header has no version (the spec: it carries version 1); open() takes it', async () => {
    const jwe = await buildJwe(pem, cardPayload(), { header: '{"alg":"RSA-OAEP-256","enc":"A256GCM"}' })
    expect((await refusal(jwe)).message).toBe(SERVICE_MESSAGES.UNDECRYPTABLE)
    expect((await decryptor.open(jwe)).header).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM' })
  })

  it('accepts a header with kid, typ and cty beside version', async () => {
    const header = '{ "kid" : "test-2026", "alg":"RSA-OAEP-256","enc":"A256GCM","typ":"JWE","cty":"json","version":"1" }'
    await expect(decryptor.decrypt(await buildJwe(pem, cardPayload(), { header }))).resolves.toBeDefined()
  })

  it('accepts a card without a security code (brands that have none) and with a holder name', async () => {
    const { card } = await decryptor.decrypt(
      await buildJwe(pem, cardPayload({ number: '6703444444444449', cvc: undefined, holderName: 'A. Shopper' })),
    )
    expect(card).toMatchObject({ number: '6703444444444449', holderName: 'A. Shopper' })
    expect(card.cvc).toBeUndefined()
  })
})

describe('reference decryptor: "Unable to decrypt the provided data"', () => {
  const headers: Array<[string, string]> = [
    ['RSA1_5', '{"alg":"RSA1_5","enc":"A256GCM"}'],
    ['dir', '{"alg":"dir","enc":"A256GCM"}'],
    ['key wrapping (A256KW)', '{"alg":"A256KW","enc":"A256GCM"}'],
    ['RSA-OAEP-384', '{"alg":"RSA-OAEP-384","enc":"A256GCM"}'],
    ['A128GCM', '{"alg":"RSA-OAEP-256","enc":"A128GCM"}'],
    ['A256CBC-HS512', '{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512"}'],
    ['zip', '{"alg":"RSA-OAEP-256","enc":"A256GCM","zip":"DEF"}'],
    ['crit', '{"alg":"RSA-OAEP-256","enc":"A256GCM","crit":["exp"],"exp":"1"}'],
    ['crit as a string', '{"alg":"RSA-OAEP-256","enc":"A256GCM","crit":"version"}'],
    ['jku', '{"alg":"RSA-OAEP-256","enc":"A256GCM","jku":"https://attacker.example/keys"}'],
    ['x5u', '{"alg":"RSA-OAEP-256","enc":"A256GCM","x5u":"https://attacker.example/cert"}'],
    ['jwk', '{"alg":"RSA-OAEP-256","enc":"A256GCM","jwk":{"kty":"RSA"}}'],
    ['duplicate alg', '{"alg":"RSA1_5","alg":"RSA-OAEP-256","enc":"A256GCM"}'],
    ['duplicate alg spelled with an escape', '{"alg":"RSA-OAEP-256","\\u0061lg":"RSA-OAEP-256","enc":"A256GCM"}'],
    ['version 2', '{"alg":"RSA-OAEP-256","enc":"A256GCM","version":"2"}'],
    ['version as a number', '{"alg":"RSA-OAEP-256","enc":"A256GCM","version":1}'],
    ['an array', '["RSA-OAEP-256","A256GCM"]'],
    ['not JSON', 'alg=RSA-OAEP-256'],
    ['no enc', '{"alg":"RSA-OAEP-256"}'],
  ]
  it.each(headers)('refuses a header with %s', async (_, header) => {
    const error = await refusal(await buildJwe(pem, cardPayload(), { header }))
    expect(error.message).toBe(SERVICE_MESSAGES.UNDECRYPTABLE)
    expect(error.code).toBe('UNDECRYPTABLE')
  })

  it('refuses wrong segment counts, padding, stray characters and non-canonical base64url', async () => {
    const jwe = await buildJwe(pem, cardPayload())
    const [h, k, iv, c, t] = jwe.split('.') as [string, string, string, string, string]
    const lastTagChar = t.at(-1)!
    const sibling = 'AQgw'.includes(lastTagChar) ? String.fromCharCode(lastTagChar.charCodeAt(0) + 1) : lastTagChar
    const broken = [
      [h, k, iv, c].join('.'),
      [h, k, iv, c, t, ''].join('.'),
      `${jwe}.`,
      [h, k, iv, c, `${t}==`].join('.'),
      [h, k, iv, c.replace(/-/g, '+').replace(/_/g, '/') + (c.includes('-') || c.includes('_') ? '' : '+'), t].join('.'),
      [h, k, ` ${iv}`, c, t].join('.'),
      // The tag's last character carries 4 unused bits: a different character, the same bytes.
      [h, k, iv, c, t.slice(0, -1) + sibling].join('.'),
      '',
    ]
    expect(sibling).not.toBe(lastTagChar)
    for (const candidate of broken) expect((await refusal(candidate)).message).toBe(SERVICE_MESSAGES.UNDECRYPTABLE)
  })

  it(`refuses input over ${MAX_JWE_LENGTH} characters without reading it`, async () => {
    const huge = await buildJwe(pem, cardPayload({ holderName: 'a'.repeat(MAX_JWE_LENGTH) }))
    expect((await refusal(huge)).detail).toMatch(/longer than/)
  })

  it('refuses IVs, tags and content keys of the wrong size', async () => {
    for (const options of [{ ivBytes: 16 }, { tagBytes: 12 }, { cekBytes: 16 }, { enc: 'A128CBC-HS256' as const, tagBytes: 12 }]) {
      expect((await refusal(await buildJwe(pem, cardPayload(), options))).message, JSON.stringify(options)).toBe(
        SERVICE_MESSAGES.UNDECRYPTABLE,
      )
    }
    // WebCrypto will not encrypt with these IVs, so swap one into a real JWE.
    for (const [enc, ivBytes, detail] of [
      ['A128CBC-HS256', 12, 'iv: not 128 bits'],
      ['A256GCM', 8, 'iv: not 96 bits'],
    ] as const) {
      const segments = (await buildJwe(pem, cardPayload(), { enc })).split('.')
      segments[2] = encodeBase64url(new Uint8Array(ivBytes))
      expect((await refusal(segments.join('.'))).detail).toBe(detail)
    }
  })

  it('refuses a JWE made for another key', async () => {
    const other = await createTestCertificate()
    expect((await refusal(await buildJwe(other.certificatePem, cardPayload()))).message).toBe(SERVICE_MESSAGES.UNDECRYPTABLE)
  })

  it('refuses everything when its own key is under 2048 bits', async () => {
    const weak = await createTestCertificate({ keyBits: 1024 })
    const weakDecryptor = await createCardDecryptor(weak.privateKeyPem)
    expect(weakDecryptor.keyBits).toBe(1024)
    const error = await refusal(await buildJwe(weak.certificatePem, cardPayload()), weakDecryptor)
    expect(error.message).toBe(SERVICE_MESSAGES.UNDECRYPTABLE)
    expect(error.detail).toMatch(/2048/)
  })

  it('refuses a non-string', async () => {
    expect((await refusal(42 as never)).message).toBe(SERVICE_MESSAGES.UNDECRYPTABLE)
  })
})

describe('reference decryptor: "Encrypted data is no longer valid"', () => {
  const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString()

  it('accepts up to 24 hours old by default and refuses older', async () => {
    await expect(decryptor.decrypt(await buildJwe(pem, cardPayload({ generationtime: hours(-23.9) })))).resolves.toBeDefined()
    const error = await refusal(await buildJwe(pem, cardPayload({ generationtime: hours(-24.1) })))
    expect(error.message).toBe(SERVICE_MESSAGES.NO_LONGER_VALID)
  })

  it('allows five minutes of clock skew ahead and no more', async () => {
    await expect(decryptor.decrypt(await buildJwe(pem, cardPayload({ generationtime: hours(4 / 60) })))).resolves.toBeDefined()
    expect((await refusal(await buildJwe(pem, cardPayload({ generationtime: hours(6 / 60) })))).message).toBe(
      SERVICE_MESSAGES.NO_LONGER_VALID,
    )
  })

  it("reads UTC written as Z or +00:00 alike, and ages it the same (Python's isoformat() writes +00:00)", async () => {
    const written = hours(-25).replace('Z', '+00:00')
    expect((await refusal(await buildJwe(pem, cardPayload({ generationtime: written })))).message).toBe(SERVICE_MESSAGES.NO_LONGER_VALID)
    const fresh = hours(-1).replace(/\.\d+Z$/, '.123456+00:00')
    await expect(decryptor.decrypt(await buildJwe(pem, cardPayload({ generationtime: fresh })))).resolves.toMatchObject({
      card: { generationtime: fresh },
    })
  })

  it('takes a configurable window', async () => {
    const strict = await createCardDecryptor(valid.privateKeyPem, { maxAgeSeconds: 60 })
    const error = await refusal(await buildJwe(pem, cardPayload({ generationtime: hours(-2 / 60) })), strict)
    expect(error.message).toBe(SERVICE_MESSAGES.NO_LONGER_VALID)
  })
})

describe('reference decryptor: "Invalid card details"', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['unpadded month', { expiryMonth: '3' }],
    ['month 13', { expiryMonth: '13' }],
    ['two-digit year', { expiryYear: '30' }],
    ['spaces in number', { number: '4111 1111 4555 1142' }],
    ['dashes in number', { number: '4111-1111-4555-1142' }],
    ['number as a JSON number', { number: 4111111145551142 }],
    ['four-digit code on a Visa', { cvc: '7373' }],
    ['three-digit code on an American Express', { number: '370000000000002', cvc: '737' }],
    ['letters in the code', { cvc: '7a7' }],
    ['missing number', { number: undefined }],
    ['missing generationtime', { generationtime: undefined }],
    ['generationtime not in UTC', { generationtime: new Date().toISOString().replace('Z', '+01:00') }],
    ['generationtime with the "unknown offset" -00:00', { generationtime: new Date().toISOString().replace('Z', '-00:00') }],
    ['generationtime without an offset', { generationtime: new Date().toISOString().replace('Z', '') }],
    ['holder name not a string', { holderName: 42 }],
  ]
  it.each(cases)('refuses %s', async (_, overrides) => {
    const error = await refusal(await buildJwe(pem, cardPayload(overrides)))
    expect(error.message).toBe(SERVICE_MESSAGES.INVALID_CARD_DETAILS)
    expect(error.code).toBe('INVALID_CARD_DETAILS')
  })

  it('refuses a payload that is not a JSON object', async () => {
    for (const plaintext of ['[]', 'null', '"card"', 'not json', new Uint8Array([0xff, 0xfe])]) {
      expect((await refusal(await buildJwe(pem, plaintext))).message).toBe(SERVICE_MESSAGES.INVALID_CARD_DETAILS)
    }
  })

  it('names the field and the rule in `detail`, never the value', async () => {
    const error = await refusal(await buildJwe(pem, cardPayload({ number: '4111 1111 4555 1142' })))
    expect(error.detail).toBe('number: must be 12 to 19 digits, nothing else')
    expect(`${error.message} ${error.detail}`).not.toMatch(/4111|1142/)
  })
})
