/**
 * Card encryptions per second in each browser engine of the suite: the raw WebCrypto
 * floor (RSA-OAEP-256 + A256GCM by hand), jose's CompactEncrypt alone, and card-jwe's encryptCard
 * (normalisation, certificate check, jose). `pnpm bench:browsers`; figures in BENCHMARKS.md.
 */
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { testCertificates } from '@card-jwe/testkit/vitest'
import { encryptCard, importCertificate, normalizeCard } from 'card-jwe'
import { CompactEncrypt, importX509 } from 'jose'
import { bench, describe } from 'vitest'

const HEADER = { alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' } as const
const encoder = new TextEncoder()
const b64u = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
const HEADER_B64 = b64u(encoder.encode(JSON.stringify(HEADER)))

const pem = testCertificates().valid.certificatePem
const card = findTestCard({ brand: 'visa', threeDSecure: 'none' })
const strict = normalizeCard(card)
const payload = () => encoder.encode(JSON.stringify({ ...strict, generationtime: new Date().toISOString() }))

const joseKey = await importX509(pem, 'RSA-OAEP-256', { extractable: true })
const rawKey = await crypto.subtle.importKey(
  'spki',
  await crypto.subtle.exportKey('spki', joseKey),
  { name: 'RSA-OAEP', hash: 'SHA-256' },
  false,
  ['encrypt'],
)
const certificate = await importCertificate(pem)

// Two seconds a task: Firefox and WebKit time in whole milliseconds, so short runs are noisy.
const OPTIONS = { time: 2_000, warmupTime: 300 }

describe('one card, one JWE', () => {
  bench(
    'WebCrypto floor',
    async () => {
      const cek = crypto.getRandomValues(new Uint8Array(32))
      const iv = crypto.getRandomValues(new Uint8Array(12))
      const aes = await crypto.subtle.importKey('raw', cek, 'AES-GCM', false, ['encrypt'])
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(HEADER_B64) }, aes, payload()),
      )
      const wrapped = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, rawKey, cek)
      void [HEADER_B64, b64u(wrapped), b64u(iv), b64u(sealed.slice(0, -16)), b64u(sealed.slice(-16))].join('.')
    },
    OPTIONS,
  )
  bench(
    'jose alone',
    async () => {
      await new CompactEncrypt(payload()).setProtectedHeader(HEADER).encrypt(joseKey)
    },
    OPTIONS,
  )
  bench(
    'card-jwe encryptCard',
    async () => {
      await encryptCard(card, certificate)
    },
    OPTIONS,
  )
})
