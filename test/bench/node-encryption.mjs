/**
 * 1. Node encryption of one test card, sequential and with 16 in flight: the node:crypto floor,
 * jose alone, node-jose, card-jwe, and the testkit batch API, each checked by the decryptor first.
 */
import { constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto'
import { CompactEncrypt, importX509 } from 'jose'
import nodeJose from 'node-jose'
import { encryptCard, importCertificate, normalizeCard } from 'card-jwe'
import { createCardDecryptor, createTestCertificate, encryptCardBatch, findTestCard } from '@card-jwe/testkit'
import { opsPerSecond, ratio, round } from './measure.mjs'

const HEADER = { alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' }
const HEADER_B64 = Buffer.from(JSON.stringify(HEADER)).toString('base64url')

const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)]

export async function nodeEncryption({ seconds, rounds = 5 }) {
  const { certificatePem, privateKeyPem } = await createTestCertificate()
  const decryptor = await createCardDecryptor(privateKeyPem)
  const card = findTestCard({ brand: 'visa', threeDSecure: 'none' })
  const strict = normalizeCard(card)
  const payload = () => new TextEncoder().encode(JSON.stringify({ ...strict, generationtime: new Date().toISOString() }))

  const publicKey = createPublicKey(certificatePem)
  const floor = () => {
    const cek = randomBytes(32)
    const iv = randomBytes(12)
    const key = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, cek)
    const cipher = createCipheriv('aes-256-gcm', cek, iv).setAAD(Buffer.from(HEADER_B64))
    const body = Buffer.concat([cipher.update(payload()), cipher.final()])
    return [
      HEADER_B64,
      key.toString('base64url'),
      iv.toString('base64url'),
      body.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.')
  }
  const joseKey = await importX509(certificatePem, 'RSA-OAEP-256')
  const jose = () => new CompactEncrypt(payload()).setProtectedHeader(HEADER).encrypt(joseKey)
  const nodeJoseKey = await nodeJose.JWK.asKey(certificatePem, 'pem')
  const viaNodeJose = () =>
    nodeJose.JWE.createEncrypt(
      { format: 'compact', fields: HEADER, contentAlg: 'A256GCM' },
      { key: nodeJoseKey, header: { alg: 'RSA-OAEP-256' } },
    )
      .update(Buffer.from(payload()))
      .final()
  const certificate = await importCertificate(certificatePem)
  const cardJwe = () => encryptCard(card, certificate)

  const implementations = { 'node:crypto floor': floor, 'jose alone': jose, 'node-jose': viaNodeJose, 'card-jwe': cardJwe }
  for (const [name, fn] of Object.entries(implementations)) {
    const { card: decrypted } = await decryptor.decrypt(await fn())
    if (decrypted.number !== card.number) throw new Error(`${name}: produced a JWE that does not decrypt to the card`)
  }

  // Interleaved rounds, median kept: on two shared cores one sample per implementation is at the
  // mercy of whatever ran just before it.
  const samples = new Map()
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(implementations)) {
      for (const concurrency of [1, 16]) {
        const key = `${name}|${concurrency}`
        samples.set(key, [
          ...(samples.get(key) ?? []),
          await opsPerSecond(fn, { seconds: seconds / rounds, concurrency, warmup: r === 0 ? 100 : 10 }),
        ])
      }
    }
  }
  const rows = [...samples].map(([key, values]) => {
    const [name, concurrency] = key.split('|')
    return { name, concurrency: Number(concurrency), opsPerSecond: round(median(values)) }
  })
  // The batch API for backend tests: a large batch spread over one worker thread per core.
  const batch = Array.from({ length: 40_000 }, () => card)
  const started = performance.now()
  const jwes = await encryptCardBatch(batch, certificatePem)
  rows.push({
    name: 'card-jwe batch (testkit)',
    concurrency: 'batch',
    opsPerSecond: round(jwes.length / ((performance.now() - started) / 1000)),
  })
  if ((await decryptor.decrypt(jwes.at(-1))).card.number !== card.number) throw new Error('batch: last JWE does not decrypt')

  const floorRate = rows.find((r) => r.name === 'node:crypto floor' && r.concurrency === 1).opsPerSecond
  const joseAt = (c) => rows.find((r) => r.name === 'jose alone' && r.concurrency === c).opsPerSecond
  for (const row of rows) {
    row.vsFloor = ratio(row.opsPerSecond, floorRate)
    row.vsJose = ratio(row.opsPerSecond, joseAt(row.concurrency === 'batch' ? 16 : row.concurrency))
  }
  const at = (name, c) => rows.find((r) => r.name === name && r.concurrency === c)
  const targets = {
    'card-jwe >= 0.95 of jose (sequential)': at('card-jwe', 1).vsJose >= 0.95,
    'card-jwe >= 0.95 of jose (16 in flight)': at('card-jwe', 16).vsJose >= 0.95,
    'card-jwe >= 2x node-jose (16 in flight)': ratio(at('card-jwe', 16).opsPerSecond, at('node-jose', 16).opsPerSecond) >= 2,
    'batch >= 0.5 of the floor': at('card-jwe batch (testkit)', 'batch').vsFloor >= 0.5,
  }
  return { rows, targets, cardJweVsNodeJose: ratio(at('card-jwe', 16).opsPerSecond, at('node-jose', 16).opsPerSecond) }
}
