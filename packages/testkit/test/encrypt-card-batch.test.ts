import { execFileSync } from 'node:child_process'
import { describe, expect, inject, it } from 'vitest'
import { CardJweError } from 'card-jwe'
import { createCardDecryptor, encryptCardBatch, TEST_CARDS } from '@card-jwe/testkit'
import type {} from '@card-jwe/testkit/vitest-global-setup'

const { valid, expired } = inject('cardJweTestCertificates')

describe('encryptCardBatch (backend test suites)', () => {
  it('encrypts every card, in order, as card-jwe would: same header, same strict payload', async () => {
    const decryptor = await createCardDecryptor(valid.privateKeyPem)
    const cards = TEST_CARDS.map((c) => ({ ...c, number: c.number.replace(/(\d{4})/g, '$1 ') }))
    const jwes = await encryptCardBatch(cards, valid.certificatePem, { threads: 1 })
    expect(jwes).toHaveLength(cards.length)
    for (const [i, jwe] of jwes.entries()) {
      const { header, card } = await decryptor.decrypt(jwe)
      expect(header).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
      expect(card.number).toBe(TEST_CARDS[i]!.number)
      expect(card.cvc ?? '').toBe(TEST_CARDS[i]!.securityCode) // no code typed: none in the payload
    }
    expect(new Set(jwes).size).toBe(jwes.length)
  })

  it('splits a batch over worker threads (built package) with the same result', async () => {
    // The worker file is the compiled one (`pnpm test` builds before it runs). It runs in a plain Node
    // process: Vitest's workers resolve the workspace packages to their TypeScript sources (the
    // @card-jwe/source condition), which a worker thread of theirs could not load.
    const builtPackage = JSON.stringify(new URL('../dist/index.js', import.meta.url).href)
    const script = `import(${builtPackage}).then(async ({ encryptCardBatch }) => {
  const { cards, certificatePem } = JSON.parse(require('node:fs').readFileSync(0, 'utf8'))
  process.stdout.write(JSON.stringify(await encryptCardBatch(cards, certificatePem, { threads: 2 })))
})`
    const decryptor = await createCardDecryptor(valid.privateKeyPem)
    const cards = Array.from({ length: 50 }, (_, i) => TEST_CARDS[i % TEST_CARDS.length]!)
    const output = execFileSync(process.execPath, ['-e', script], {
      input: JSON.stringify({ cards, certificatePem: valid.certificatePem }),
      encoding: 'utf8',
    })
    const jwes = JSON.parse(output) as string[]
    expect(jwes).toHaveLength(50)
    expect((await decryptor.decrypt(jwes[0]!)).card.number).toBe(cards[0]!.number)
    expect((await decryptor.decrypt(jwes[49]!)).card.number).toBe(cards[49]!.number)
  })

  it('refuses what card-jwe refuses: invalid cards and unusable certificates', async () => {
    await expect(encryptCardBatch([{ ...TEST_CARDS[0]!, number: '4111111145551143' }], valid.certificatePem)).rejects.toThrow(CardJweError)
    await expect(encryptCardBatch([TEST_CARDS[0]!], expired.certificatePem)).rejects.toMatchObject({ code: 'ERR_CERTIFICATE_EXPIRED' })
  })
})
