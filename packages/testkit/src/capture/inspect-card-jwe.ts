import { DEFAULT_MAX_AGE_SECONDS, DEFAULT_MAX_CLOCK_SKEW_SECONDS, type CardDecryptor } from '../decryptor/create-card-decryptor.js'
import { DecryptionError } from '../decryptor/errors.js'
import { decodeBase64url } from '../decryptor/lib/base64url.js'
import type { DecryptedCard } from '../decryptor/lib/card-payload.js'
import { CardCaptureError } from './errors.js'

/** The header every new card JWE must carry (spec: "Card payload for JWE"), member for member. */
export const EXPECTED_CARD_JWE_HEADER: Readonly<{
  /** RSAES-OAEP with SHA-256 (RFC 7518 section 4.3). */
  alg: 'RSA-OAEP-256'
  /** AES-256 GCM (RFC 7518 section 5.3). */
  enc: 'A256GCM'
  /** The payload format's version. */
  version: '1'
}> = Object.freeze({ alg: 'RSA-OAEP-256', enc: 'A256GCM', version: '1' } as const)
/**
 * How long before the capture began a `generationtime` may lie and still count as made for this
 * payment: a minute, for a browser on another machine with its own clock. Older means the page
 * sent a JWE it had made before (spec: the payload is made when the shopper pays).
 */
export const CAPTURE_CLOCK_TOLERANCE_MS = 60_000

/** One card JWE the page sent, opened by the reference decryptor and checked. */
export interface CapturedCard {
  /** `"POST /api/payments"`: which request carried it. */
  readonly request: string
  /** The compact JWE as sent. */
  readonly jwe: string
  /** The protected header exactly as sent, every member. */
  readonly protectedHeader: Readonly<Record<string, unknown>>
  /** The decrypted payload: number, expiry, code, holder name, generationtime. */
  readonly card: DecryptedCard
  /** `generationtime` as a date. */
  readonly generatedAt: Date
}

/** The clocks and limits {@link inspectCardJwe} checks `generationtime` against. */
export interface InspectOptions {
  /** `"POST /api/payments"`, for messages. */
  readonly request: string
  /** When the capture began: a `generationtime` before it (less the tolerance) is a reused JWE. */
  readonly notBefore?: Date
  /** Clock; defaults to the real time. */
  readonly now?: () => Date
}

const hours = (ms: number) => (ms / 3_600_000).toFixed(1)

function headerOf(jwe: string, request: string): Record<string, unknown> {
  try {
    const header = JSON.parse(new TextDecoder().decode(decodeBase64url(jwe.split('.')[0] ?? '', 'header'))) as unknown
    if (header && typeof header === 'object' && !Array.isArray(header)) return header as Record<string, unknown>
  } catch {
    // Reported below.
  }
  throw new CardCaptureError('NOT_A_JWE', `${request}: the JWE's protected header is not a base64url JSON object (RFC 7516 section 7.1)`)
}

/**
 * Opens one captured JWE with the reference decryptor (`decryptor` made with the service's time
 * limits) and checks it as a test of a card page should: today's algorithms only, a
 * `generationtime` from this payment, a payload in the service's formats.
 */
export async function inspectCardJwe(jwe: string, decryptor: CardDecryptor, options: InspectOptions): Promise<CapturedCard> {
  const { request } = options
  const now = (options.now ?? (() => new Date()))()
  const protectedHeader = headerOf(jwe, request)
  if (protectedHeader.alg === 'RSA-OAEP' || protectedHeader.enc === 'A128CBC-HS256') {
    throw new CardCaptureError(
      'LEGACY_ALGORITHM',
      `${request}: the JWE uses ${protectedHeader.alg} with ${protectedHeader.enc}; new card pages must send RSA-OAEP-256 with A256GCM ` +
        '(the service still opens the legacy pair, for old integrations only)',
    )
  }
  let card: DecryptedCard
  try {
    card = (await decryptor.decrypt(jwe)).card
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error
    if (error.code === 'NO_LONGER_VALID') {
      // The payload is intact; read its time to say how old it is.
      const { plaintext } = await decryptor.open(jwe)
      const generated = Date.parse((JSON.parse(new TextDecoder().decode(plaintext)) as { generationtime?: string }).generationtime ?? '')
      const age = now.getTime() - generated
      if (age < 0) {
        throw new CardCaptureError(
          'FUTURE_GENERATION_TIME',
          `${request}: generationtime lies ${Math.round(-age / 1000)} s ahead of the clock; ` +
            `the service allows ${DEFAULT_MAX_CLOCK_SKEW_SECONDS} s (Encrypted data is no longer valid)`,
        )
      }
      throw new CardCaptureError(
        'STALE_GENERATION_TIME',
        `${request}: generationtime is ${hours(age)} h old; the service accepts ${DEFAULT_MAX_AGE_SECONDS / 3600} h at most ` +
          '(Encrypted data is no longer valid). Encrypt when the shopper pays, never reuse a JWE',
      )
    }
    const code = error.code === 'INVALID_CARD_DETAILS' ? 'INVALID_CARD_DETAILS' : 'UNDECRYPTABLE'
    throw new CardCaptureError(code, `${request}: the reference decryptor refused the JWE: ${error.detail} (${error.message})`)
  }
  const generatedAt = new Date(card.generationtime)
  if (options.notBefore && generatedAt.getTime() < options.notBefore.getTime() - CAPTURE_CLOCK_TOLERANCE_MS) {
    const early = Math.round((options.notBefore.getTime() - generatedAt.getTime()) / 1000)
    throw new CardCaptureError(
      'STALE_GENERATION_TIME',
      `${request}: generationtime is ${early} s before this test's capture began: the page sent a JWE made earlier. ` +
        'Encrypt when the shopper pays, never reuse a JWE',
    )
  }
  return Object.freeze({ request, jwe, protectedHeader: Object.freeze(protectedHeader), card, generatedAt })
}
