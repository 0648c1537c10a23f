/**
 * JWEs made by card-jwe in Node, Deno and Bun (the npm packages' binaries, offline), each opened by
 * the testkit's reference decryptor in Node: the card comes back field for field, with the exact
 * protected header (issue 14).
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createCardDecryptor } from '@card-jwe/testkit/decryptor'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { testCertificates } from '@card-jwe/testkit/vitest'
import { describe, expect, it } from 'vitest'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const script = here('./support/encrypt-in-runtime.mjs')
const bin = (name: string) => here(`../node_modules/.bin/${name}`)

const RUNTIMES = {
  node: (args: string[]) => [process.execPath, [script, ...args]],
  deno: (args: string[]) => [bin('deno'), ['run', '--allow-read', '--allow-env', script, ...args]],
  bun: (args: string[]) => [bin('bun'), [script, ...args]],
} as const satisfies Record<string, (args: string[]) => readonly [string, string[]]>

describe.each(Object.keys(RUNTIMES) as Array<keyof typeof RUNTIMES>)('a JWE made in %s', (runtime) => {
  it('opens with the reference decryptor to the card as typed', { timeout: 30_000 }, async () => {
    const { valid } = testCertificates()
    const card = findTestCard({ brand: 'american-express' })
    const typed = { number: card.number.replace(/(\d{4})(\d{6})/, '$1 $2 '), expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, cvc: card.cvc!, holderName: ' J. Smith ' }
    const [command, args] = RUNTIMES[runtime]([Buffer.from(valid.certificatePem).toString('base64'), JSON.stringify(typed)])
    const jwe = execFileSync(command, args, { cwd: here('..'), encoding: 'utf8' }).trim()
    const { header, card: opened } = await (await createCardDecryptor(valid.privateKeyPem)).decrypt(jwe)
    expect(header).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' })
    expect(opened).toMatchObject({ number: card.number, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, cvc: card.cvc, holderName: 'J. Smith' })
  })
})
