/**
 * Fuzzing the library entry points that take outside data: card verdicts and
 * normalisation, certificate import, the reference decryptor, and every payment-validator schema.
 * Properties: nothing throws but the documented error; no message holds card digits.
 */
import { afterAll, describe, expect, inject, it } from 'vitest'
import fc from 'fast-check'
import * as validator from '@card-jwe/payment-validator'
import {
  CardJweError,
  checkCard,
  encryptCard,
  expiryVerdict,
  holderNameVerdict,
  importCertificate,
  normalizeCard,
  numberVerdict,
  securityCodeVerdict,
  CARD_BRANDS,
} from 'card-jwe'
import { createCardDecryptor, DecryptionError, SERVICE_MESSAGES, encodeBase64url, decodeBase64url } from '@card-jwe/testkit/decryptor'
import { TEST_CARDS } from '@card-jwe/testkit/test-cards'
import { count, hostileText, jsonWith, report, settings } from './support/fuzz.js'
import { readCspReport } from '@card-jwe/demo'
import { leaksCardDigits } from '../../packages/card-jwe/test/support/cards.js'

const { valid } = inject('cardJweTestCertificates')
const CARD = TEST_CARDS.find((c) => c.brand === 'visa')!
const isVerdict = (v: { isValid: unknown; isPotentiallyValid: unknown }) =>
  typeof v.isValid === 'boolean' && typeof v.isPotentiallyValid === 'boolean' && (!v.isValid || v.isPotentiallyValid)

afterAll(() => report('library'))

describe('card verdicts and normalisation', () => {
  it('give a verdict for any text and never throw', () => {
    fc.assert(
      fc.property(hostileText(), hostileText(8), fc.option(fc.constantFrom(...CARD_BRANDS)), (text, short, brand) => {
        count('card verdicts')
        expect(isVerdict(numberVerdict(text))).toBe(true)
        expect(isVerdict(expiryVerdict(short))).toBe(true)
        expect(isVerdict(expiryVerdict({ month: short, year: text }))).toBe(true)
        expect(isVerdict(securityCodeVerdict(short, brand))).toBe(true)
        expect(isVerdict(holderNameVerdict(text))).toBe(true)
      }),
      settings(20_000),
    )
  })

  it('normalise or refuse with ERR_CARD_INVALID naming fields, never quoting the number', () => {
    const field = fc.oneof(hostileText(24), fc.integer(), fc.constant(undefined), fc.constant(null), fc.object({ maxDepth: 1 }))
    const number = fc.oneof(fc.constantFrom(...TEST_CARDS.map((c) => c.number)), hostileText(24))
    fc.assert(
      fc.property(number, field, field, field, field, field, (n, month, year, expiry, securityCode, holderName) => {
        count('normalizeCard / checkCard')
        const input = { number: n, expiryMonth: month, expiryYear: year, expiry, securityCode, holderName } as never
        const check = checkCard(input)
        expect(typeof check.ok).toBe('boolean')
        try {
          normalizeCard(input)
        } catch (error) {
          expect(error).toBeInstanceOf(CardJweError)
          expect(['ERR_CARD_INVALID', 'ERR_INVALID_ARGUMENT']).toContain((error as CardJweError).code)
          const digits = n.replace(/\D/g, '')
          if (digits.length >= 6) expect(leaksCardDigits(String((error as Error).message) + JSON.stringify(error), digits)).toBe(false)
        }
      }),
      settings(8_000),
    )
  })
})

describe('certificate import', () => {
  const der = Uint8Array.from(atob(valid.certificatePem.replace(/-----[^-]+-----|\s/g, '')), (c) => c.charCodeAt(0))
  const mutatedDer = fc
    .tuple(fc.array(fc.tuple(fc.nat(der.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.nat(der.length))
    .map(([flips, cut]) => {
      const bytes = der.slice(0, Math.max(cut, 1))
      for (const [at, value] of flips) if (at < bytes.length) bytes[at] = value
      return bytes
    })
  const pemOf = (bytes: Uint8Array) => `-----BEGIN CERTIFICATE-----\n${btoa(String.fromCharCode(...bytes))}\n-----END CERTIFICATE-----`
  const input = fc.oneof(
    mutatedDer,
    mutatedDer.map(pemOf),
    fc.uint8Array({ maxLength: 2000 }),
    fc.string({ unit: 'binary', maxLength: 400 }),
    hostileText(60),
  )

  it('imports or refuses with a CardJweError code for random and mutated DER and PEM', async () => {
    await fc.assert(
      fc.asyncProperty(input, async (candidate) => {
        count('importCertificate')
        try {
          await importCertificate(candidate)
        } catch (error) {
          expect(error).toBeInstanceOf(CardJweError)
          expect((error as CardJweError).code).toMatch(/^ERR_/)
        }
      }),
      settings(2_000),
    )
  })
})

describe('reference decryptor', async () => {
  const decryptor = await createCardDecryptor(valid.privateKeyPem)
  const certificate = await importCertificate(valid.certificatePem)
  const genuine = await encryptCard(CARD, certificate)
  const segments = genuine.split('.')
  const header = JSON.parse(new TextDecoder().decode(decodeBase64url(segments[0]!, 'protected header'))) as Record<string, unknown>
  const encodeHeader = (text: string) => encodeBase64url(new TextEncoder().encode(text))
  const mutation = fc.oneof(
    // a changed byte or character in any segment
    fc
      .tuple(fc.nat(4), fc.nat(2000), fc.constantFrom(...'AZaz09-_=+/.'.split('')))
      .map(([s, at, c]) =>
        segments
          .map((seg, i) => (i === s && seg.length ? seg.slice(0, at % seg.length) + c + seg.slice((at % seg.length) + 1) : seg))
          .join('.'),
      ),
    // truncated, extended, oversized
    fc.nat(genuine.length).map((n) => genuine.slice(0, n)),
    fc.string({ maxLength: 50 }).map((tail) => genuine + tail),
    fc.integer({ min: 16 * 1024 - 10, max: 40_000 }).map((n) => genuine + 'A'.repeat(Math.max(0, n - genuine.length))),
    // re-encoded: padding, standard base64 alphabet
    fc.constant(segments.map((s) => `${s}==`).join('.')),
    fc.constant(genuine.replace(/-/g, '+').replace(/_/g, '/')),
    // header permutations: alg/enc swaps, zip, crit, jku/x5u/jwk, duplicate keys, key order
    fc
      .record({
        alg: fc.constantFrom('RSA-OAEP-256', 'RSA-OAEP', 'RSA1_5', 'dir', 'A256KW', 'none', 'A256GCM'),
        enc: fc.constantFrom('A256GCM', 'A128CBC-HS256', 'A128GCM', 'RSA-OAEP-256', 'A256CBC-HS512'),
        extra: fc.subarray([
          ['zip', 'DEF'],
          ['crit', ['exp']],
          ['jku', 'https://attacker.example/jwks'],
          ['x5u', 'https://attacker.example/c'],
          ['jwk', { kty: 'RSA' }],
          ['version', 2],
          ['kid', 'k1'],
        ] as Array<[string, unknown]>),
        duplicate: fc.option(fc.constantFrom('alg', 'enc', 'version')),
      })
      .map(({ alg, enc, extra, duplicate }) => {
        let text = JSON.stringify({ ...header, alg, enc, ...Object.fromEntries(extra) })
        if (duplicate) text = `${text.slice(0, -1)},"${duplicate}":${JSON.stringify(header[duplicate] ?? 'x')}}`
        return [encodeHeader(text), ...segments.slice(1)].join('.')
      }),
    fc.string({ unit: 'binary', maxLength: 300 }),
  )

  it('decrypts only what it should and otherwise answers one of the three service messages', async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async (jwe) => {
        count('decryptor')
        try {
          const { card } = await decryptor.decrypt(jwe)
          expect(card.number).toBe(CARD.number) // a harmless re-encoding that still opens
        } catch (error) {
          expect(error).toBeInstanceOf(DecryptionError)
          expect(Object.values(SERVICE_MESSAGES)).toContain((error as Error).message)
          expect(leaksCardDigits(`${(error as Error).message} ${(error as DecryptionError).detail}`, CARD.number)).toBe(false)
        }
      }),
      settings(2_000),
    )
  })
})

describe('payment-validator schemas', () => {
  const schemas = Object.entries(validator).filter(
    ([name, value]) => name.endsWith('Schema') && typeof (value as { safeParse?: unknown }).safeParse === 'function',
  ) as Array<[string, { safeParse(v: unknown): { success: boolean; error?: unknown } }]>

  it('parse or refuse any JSON for every schema, with issues that never quote a card number', () => {
    expect(schemas.length).toBeGreaterThan(30)
    fc.assert(
      fc.property(fc.constantFrom(...schemas), jsonWith(CARD.number), ([name, schema], value) => {
        count(`schemas (${schemas.length})`)
        const result = schema.safeParse(value)
        if (!result.success) {
          const text = validator.describeIssues(validator.issuesOf(result.error as never))
          expect(leaksCardDigits(text, CARD.number), name).toBe(false)
        }
      }),
      settings(10_000),
    )
  })

  it('parse any bytes as a body: a value or a refusal, never a throw', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          jsonWith(CARD.number).map((v) => new TextEncoder().encode(JSON.stringify(v) ?? '')),
        ),
        (bytes) => {
          count('parseJsonBody')
          const result = validator.parseJsonBody(bytes, validator.PaymentSubmissionSchema)
          if (!result.ok) expect(leaksCardDigits(result.error.message + JSON.stringify(result.error.issues), CARD.number)).toBe(false)
        },
      ),
      settings(5_000),
    )
  })
})

describe("the shop's CSP report reader", () => {
  // A skimmer's blocked request carries the card wherever it can: host (DNS exfiltration), path, query, user info.
  const blockedUrl = fc
    .tuple(
      fc.constantFrom(
        'https://{}.skimmer.example/',
        'https://skimmer.example/{}',
        'https://skimmer.example/c?pan={}',
        'https://{}@skimmer.example',
        'wss://a{}b.example:8443',
        'data:text/plain,{}',
        // An opaque origin names its scheme, which the sender chose: `x5555…:` parses.
        'x{}:',
        '{}',
      ),
      hostileText(),
    )
    .map(([template, noise]) => template.replace('{}', CARD.number + noise))
  const report = fc.oneof(
    fc.record({
      'csp-report': fc.record(
        {
          'effective-directive': fc.oneof(hostileText(), fc.constant('script-src-elem')),
          'blocked-uri': fc.oneof(blockedUrl, jsonWith(CARD.number)),
          'script-sample': fc.constant(CARD.number),
        },
        { requiredKeys: [] },
      ),
    }),
    fc.array(
      fc.record({
        type: fc.constant('csp-violation'),
        url: blockedUrl,
        body: fc.record(
          { effectiveDirective: hostileText(), blockedURL: blockedUrl, sample: fc.constant(CARD.number) },
          { requiredKeys: [] },
        ),
      }),
      { maxLength: 25 },
    ),
    jsonWith(CARD.number),
  )

  it('reads any body without throwing, at most 20 violations, and never passes card digits to the log', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          report.map((value) => Buffer.from(JSON.stringify(value) ?? '')),
          fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
        ),
        (body) => {
          count('readCspReport')
          const violations = readCspReport(body)
          expect(violations.length).toBeLessThanOrEqual(20)
          expect(leaksCardDigits(JSON.stringify(violations), CARD.number)).toBe(false)
        },
      ),
      settings(5_000),
    )
  })
})
