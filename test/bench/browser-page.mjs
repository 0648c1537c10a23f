// The benchmark page: the same card encrypted by raw WebCrypto, by jose alone and by card-jwe.
import { CompactEncrypt, importX509 } from 'jose'
import { encryptCard, importCertificate, normalizeCard } from 'card-jwe'
import { warmUp } from '../../packages/checkout/src/lib/warm-up.ts'

const HEADER = { alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' }
const encoder = new TextEncoder()
// The fastest encoding the browser has: Uint8Array.prototype.toBase64 where it exists.
const b64u = (bytes) =>
  typeof Uint8Array.prototype.toBase64 === 'function'
    ? new Uint8Array(bytes).toBase64({ alphabet: 'base64url', omitPadding: true })
    : btoa(String.fromCharCode(...new Uint8Array(bytes)))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '')
const HEADER_B64 = b64u(encoder.encode(JSON.stringify(HEADER)))

async function rawKey(pem) {
  // The floor reads the SPKI with jose, once, outside the timed loop.
  const key = await importX509(pem, 'RSA-OAEP-256', { extractable: true })
  const spki = await crypto.subtle.exportKey('spki', key)
  return crypto.subtle.importKey('spki', spki, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt'])
}

async function opsPerSecond(fn, ms) {
  for (let i = 0; i < 50; i++) await fn()
  let done = 0
  const start = performance.now()
  while (performance.now() - start < ms) {
    await fn()
    done++
  }
  return done / ((performance.now() - start) / 1000)
}

window.bench = {
  async steady(kind, pem, card, ms) {
    const strict = normalizeCard(card)
    const payload = () => encoder.encode(JSON.stringify({ ...strict, generationtime: new Date().toISOString() }))
    if (kind === 'floor') {
      const rsa = await rawKey(pem)
      return opsPerSecond(async () => {
        const cek = crypto.getRandomValues(new Uint8Array(32))
        const iv = crypto.getRandomValues(new Uint8Array(12))
        const aes = await crypto.subtle.importKey('raw', cek, 'AES-GCM', false, ['encrypt'])
        const sealed = new Uint8Array(
          await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(HEADER_B64) }, aes, payload()),
        )
        const wrapped = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, rsa, cek)
        return [HEADER_B64, b64u(wrapped), b64u(iv), b64u(sealed.slice(0, -16)), b64u(sealed.slice(-16))].join('.')
      }, ms)
    }
    if (kind === 'jose') {
      const key = await importX509(pem, 'RSA-OAEP-256')
      return opsPerSecond(() => new CompactEncrypt(payload()).setProtectedHeader(HEADER).encrypt(key), ms)
    }
    if (kind === 'normalize') return opsPerSecond(() => normalizeCard(card), ms)
    const certificate = await importCertificate(pem)
    return opsPerSecond(() => encryptCard(card, certificate), ms)
  },
  /** From certificate text to the first JWE, in a page that has done nothing else yet. */
  async firstJwe(pem, card) {
    const start = performance.now()
    const certificate = await importCertificate(pem)
    const imported = performance.now()
    await encryptCard(card, certificate)
    const first = performance.now()
    await encryptCard(card, certificate)
    const second = performance.now()
    return { total: first - start, importCertificate: imported - start, firstEncrypt: first - imported, secondEncrypt: second - first }
  },
  /**
   * The first JWE after Pay as @card-jwe/checkout has it: the certificate imported and warmed at
   * mount (its own warm-up), the page idle a moment, then the shopper's card.
   */
  async firstAfterMount(pem, card) {
    const certificate = await warmUp(await importCertificate(pem))
    await new Promise((resolve) => setTimeout(resolve, 200))
    const start = performance.now()
    await encryptCard(card, certificate)
    return performance.now() - start
  },
  /**
   * The same idle in a page long warm (fifty encryptions first), then one card: what any encryption
   * costs once the page has been idle, and the bare AES-GCM of the payload after the same idle.
   */
  async afterIdle(pem, card) {
    const certificate = await importCertificate(pem)
    for (let i = 0; i < 50; i++) await encryptCard(card, certificate)
    await new Promise((resolve) => setTimeout(resolve, 200))
    let start = performance.now()
    await encryptCard(card, certificate)
    const encryption = performance.now() - start
    const key = await crypto.subtle.importKey('raw', crypto.getRandomValues(new Uint8Array(32)), 'AES-GCM', false, ['encrypt'])
    const data = encoder.encode(JSON.stringify({ ...normalizeCard(card), generationtime: new Date().toISOString() }))
    for (let i = 0; i < 50; i++) await crypto.subtle.encrypt({ name: 'AES-GCM', iv: crypto.getRandomValues(new Uint8Array(12)) }, key, data)
    await new Promise((resolve) => setTimeout(resolve, 200))
    start = performance.now()
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv: crypto.getRandomValues(new Uint8Array(12)) }, key, data)
    return { encryption, aesGcm: performance.now() - start }
  },
}
document.body.dataset.ready = 'true'
