/**
 * Published vectors through the decryptor's primitives (see vectors/README.md for the rules).
 * Files are read from this package's copy; nothing reads ../shared.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  aesCbcHmacSha256Decrypt,
  aesGcmDecrypt,
  createCardDecryptor,
  DecryptionError,
  rsaOaepDecrypt,
  SERVICE_MESSAGES,
} from '@card-jwe/testkit/decryptor'

interface AeadCase {
  tcId: number
  key: string
  iv: string
  aad: string
  msg: string
  ct: string
  tag: string
  result: string
  flags: string[]
}
interface OaepCase {
  tcId: number
  msg: string
  ct: string
  label: string
  result: string
  flags: string[]
}
interface Groups<G, T> {
  numberOfTests: number
  testGroups: Array<G & { tests: T[] }>
}

const load = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./vectors/${name}`, import.meta.url), 'utf8')) as T
const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16))
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')

/** The verdict a primitive gives: the plaintext as hex, or the generic failure. */
async function verdict(run: () => Promise<Uint8Array>): Promise<string> {
  try {
    return toHex(await run())
  } catch (error) {
    expect(error).toBeInstanceOf(DecryptionError)
    expect((error as Error).message).toBe(SERVICE_MESSAGES.UNDECRYPTABLE)
    return 'refused'
  }
}

const counts: Record<string, { agreed: number; refusedOutsideJwe: number }> = {}
function count(file: string, kind: 'agreed' | 'refusedOutsideJwe') {
  counts[file] ??= { agreed: 0, refusedOutsideJwe: 0 }
  counts[file][kind]++
}

describe.each(['rsa_oaep_2048_sha256_mgf1sha256_test.json', 'rsa_oaep_2048_sha1_mgf1sha1_test.json'])('Wycheproof %s', (file) => {
  const vectors = load<Groups<{ privateKeyPkcs8: string; sha: string }, OaepCase>>(`wycheproof/${file}`)
  const all = vectors.testGroups.flatMap((g) => g.tests.map((t) => ({ group: g, t })))

  it('holds every announced case', () => {
    expect(all).toHaveLength(vectors.numberOfTests)
  })

  it.each(all.map(({ group, t }) => [t.tcId, t.result, group, t] as const))('case %i (%s)', async (_, __, group, t) => {
    const key = await crypto.subtle.importKey('pkcs8', hex(group.privateKeyPkcs8), { name: 'RSA-OAEP', hash: group.sha }, false, [
      'decrypt',
    ])
    const got = await verdict(() => rsaOaepDecrypt(key, hex(t.ct), hex(t.label)))
    if (t.result === 'valid') expect(got).toBe(t.msg)
    else if (t.result === 'invalid') expect(got).toBe('refused')
    count(file, 'agreed')
  })
})

describe('Wycheproof aes_gcm_test.json', () => {
  const vectors = load<Groups<{ keySize: number; ivSize: number; tagSize: number }, AeadCase>>('wycheproof/aes_gcm_test.json')
  const all = vectors.testGroups.flatMap((g) => g.tests.map((t) => ({ group: g, t })))

  it('holds every announced case', () => expect(all).toHaveLength(vectors.numberOfTests))

  it.each(all.map(({ group, t }) => [t.tcId, group.ivSize, t.result, group, t] as const))(
    'case %i (iv %i bits, %s)',
    async (_, __, ___, group, t) => {
      const got = await verdict(() => aesGcmDecrypt(hex(t.key), hex(t.iv), hex(t.ct), hex(t.tag), hex(t.aad)))
      const inJweProfile = group.ivSize === 96 && group.tagSize === 128
      if (!inJweProfile) {
        expect(got).toBe('refused')
        count('aes_gcm_test.json', 'refusedOutsideJwe')
        return
      }
      if (t.result === 'valid') expect(got).toBe(t.msg)
      else if (t.result === 'invalid') expect(got).toBe('refused')
      count('aes_gcm_test.json', 'agreed')
    },
  )
})

describe('Wycheproof a128cbc_hs256_test.json', () => {
  const vectors = load<Groups<{ keySize: number; ivSize: number; tagSize: number }, AeadCase>>('wycheproof/a128cbc_hs256_test.json')
  const all = vectors.testGroups.flatMap((g) => g.tests.map((t) => ({ group: g, t })))

  it('holds every announced case', () => expect(all).toHaveLength(vectors.numberOfTests))

  it.each(all.map(({ t }) => [t.tcId, t.result, t] as const))('case %i (%s)', async (_, __, t) => {
    const got = await verdict(() => aesCbcHmacSha256Decrypt(hex(t.key), hex(t.iv), hex(t.ct), hex(t.tag), hex(t.aad)))
    if (t.result === 'valid') expect(got).toBe(t.msg)
    else if (t.result === 'invalid') expect(got).toBe('refused')
    count('a128cbc_hs256_test.json', 'agreed')
  })
})

describe('RFC 7520 section 5.2 (RSA-OAEP with A256GCM, 4096-bit key)', () => {
  const vector = load<{ input: { plaintext: string; key: JsonWebKey }; output: { compact: string } }>(
    'rfc7520/5_2.key_encryption_using_rsa-oaep_with_aes-gcm.json',
  )

  it('decrypts to the published plaintext', async () => {
    const jwk = await crypto.subtle.importKey('jwk', vector.input.key, { name: 'RSA-OAEP', hash: 'SHA-1' }, true, ['decrypt'])
    const decryptor = await createCardDecryptor(new Uint8Array(await crypto.subtle.exportKey('pkcs8', jwk)))
    expect(decryptor.keyBits).toBe(4096)
    const { header, plaintext } = await decryptor.open(vector.output.compact)
    expect(header).toEqual({ alg: 'RSA-OAEP', kid: 'samwise.gamgee@hobbiton.example', enc: 'A256GCM' })
    expect(new TextDecoder().decode(plaintext)).toBe(vector.input.plaintext)
    // Not a card JWE: its header has no version 1, so the card check refuses it as the service would.
    await expect(decryptor.decrypt(vector.output.compact)).rejects.toThrow(SERVICE_MESSAGES.UNDECRYPTABLE)
  })
})

describe('vector totals', () => {
  it('ran every case', () => {
    console.info('vector verdicts:', JSON.stringify(counts))
    expect(counts['rsa_oaep_2048_sha256_mgf1sha256_test.json']?.agreed).toBe(37)
    expect(counts['rsa_oaep_2048_sha1_mgf1sha1_test.json']?.agreed).toBeGreaterThan(0)
    expect(counts['aes_gcm_test.json']!.agreed + counts['aes_gcm_test.json']!.refusedOutsideJwe).toBe(316)
    expect(counts['a128cbc_hs256_test.json']?.agreed).toBe(94)
  })
})
