import { createCardDecryptor, type CardDecryptor } from '../decryptor/create-card-decryptor.js'
import type { PrivateKeyInput } from '../decryptor/lib/private-key.js'
import { CardCaptureError } from './errors.js'
import { describeFinding, findCardDigits } from './find-card-digits.js'
import { inspectCardJwe, type CapturedCard } from './inspect-card-jwe.js'
import { matchTypedCard, type TypedCard } from './match-typed-card.js'
import { COMPACT_JWE, describeRequest, type CapturedRequest } from './lib/request-text.js'
import { urlMatcher, type UrlPattern } from './lib/url-pattern.js'

/** How long {@link CardCapture.nextCard} waits for a request by default. */
export const NEXT_CARD_TIMEOUT_MS = 15_000

/** The part of a Playwright request the capture reads (Playwright's `Request` fits). */
export interface RequestLike {
  /** The full URL. */
  url(): string
  /** "GET", "POST", ... */
  method(): string
  /** The body as text, or null without one. */
  postData(): string | null
}

/** Whatever emits the page's requests: a Playwright `Page` or `BrowserContext`. */
export interface RequestSource {
  /** Adds a listener for every request. */
  on(event: 'request', listener: (request: RequestLike) => void): unknown
  /** Removes it. */
  off(event: 'request', listener: (request: RequestLike) => void): unknown
}

/** Options of {@link captureCardRequests}. */
export interface CaptureOptions {
  /** The private key of the certificate the page encrypts with: PEM, or PKCS#8 bytes. */
  readonly privateKey: PrivateKeyInput
  /** Clock; defaults to the real time. */
  readonly now?: () => Date
}

/** Options of {@link CardCapture.nextCard}. */
export interface NextCardOptions {
  /** Milliseconds to wait for the request; default {@link NEXT_CARD_TIMEOUT_MS}. */
  readonly timeout?: number
  /** The card the test typed: the captured one must be exactly it (`CARD_MISMATCH` otherwise). */
  readonly typed?: TypedCard
}

/** The page's requests as a test sees them; see {@link captureCardRequests}. */
export interface CardCapture {
  /**
   * The next request to `url` not yet taken, its card JWE decrypted and checked, and every request
   * so far scanned for that card's digits in clear. Throws a `CardCaptureError` on any failure.
   */
  nextCard(url: UrlPattern, options?: NextCardOptions): Promise<CapturedCard>
  /**
   * The next request to `url` not yet taken, as it was sent, nothing checked: one the test knows
   * carries no card (an iDEAL payment before a card's, a details post), so `nextCard` takes the one after.
   */
  nextRequest(url: UrlPattern, options?: { readonly timeout?: number }): Promise<CapturedRequest>
  /** Every card taken with `nextCard`, in order. */
  readonly cards: readonly CapturedCard[]
  /** Every request seen, in order. */
  readonly requests: readonly CapturedRequest[]
  /**
   * Scans every request so far for the digits of each captured card and of `numbers` (cards the
   * test typed); throws `CARD_DIGITS_IN_CLEAR` naming the request and the rule.
   */
  expectNoCardDigits(numbers?: readonly string[]): void
  /** Stops listening. */
  stop(): void
}

/**
 * Listens to every request of a page (or browser context) from now on, without stopping any, so a
 * test can take the card JWEs the page sends to the shop's API, decrypt them with the reference
 * decryptor, and prove that no request carried card digits in clear.
 */
export async function captureCardRequests(source: RequestSource, options: CaptureOptions): Promise<CardCapture> {
  const decryptor: CardDecryptor = await createCardDecryptor(options.privateKey, options.now ? { now: options.now } : {})
  const now = options.now ?? (() => new Date())
  const startedAt = now()
  const requests: CapturedRequest[] = []
  const cards: CapturedCard[] = []
  const typedNumbers: string[] = []
  const taken = new Set<CapturedRequest>()
  const waiters = new Set<() => void>()

  const listener = (request: RequestLike) => {
    const body = request.postData()
    requests.push(Object.freeze({ method: request.method(), url: request.url(), ...(body === null ? {} : { body }) }))
    for (const wake of waiters) wake()
  }
  source.on('request', listener)

  async function waitFor(matches: (url: string) => boolean, timeout: number): Promise<CapturedRequest | undefined> {
    const find = () => requests.find((request) => !taken.has(request) && matches(request.url))
    const found = find()
    if (found) return found
    return new Promise((resolve) => {
      const wake = () => {
        const next = find()
        if (next) done(next)
      }
      const timer = setTimeout(() => done(undefined), timeout)
      const done = (request: CapturedRequest | undefined) => {
        clearTimeout(timer)
        waiters.delete(wake)
        resolve(request)
      }
      waiters.add(wake)
    })
  }

  function expectNoCardDigits(numbers: readonly string[] = []): void {
    const findings = findCardDigits(requests, [...cards.map((c) => c.card.number), ...typedNumbers, ...numbers])
    if (findings.length > 0) throw new CardCaptureError('CARD_DIGITS_IN_CLEAR', findings.map(describeFinding).join('; '))
  }

  async function take(url: UrlPattern, timeout = NEXT_CARD_TIMEOUT_MS): Promise<CapturedRequest> {
    const request = await waitFor(urlMatcher(url), timeout)
    if (!request) throw new CardCaptureError('NO_CARD_REQUEST', `no request to ${String(url)} within ${timeout} ms`)
    taken.add(request)
    return request
  }

  return {
    nextRequest: (url, nextOptions = {}) => take(url, nextOptions.timeout),
    async nextCard(url, nextOptions = {}) {
      const request = await take(url, nextOptions.timeout)
      const name = describeRequest(request)
      const jwes = [...(request.body ?? '').matchAll(COMPACT_JWE)].map((m) => m[0])
      if (jwes.length === 0)
        throw new CardCaptureError(
          'NOT_A_JWE',
          `${name}: the body carries no compact JWE (five base64url segments, RFC 7516 section 7.1); card data may travel only inside one`,
        )
      if (jwes.length > 1) throw new CardCaptureError('NOT_A_JWE', `${name}: the body carries ${jwes.length} JWEs; one card is one JWE`)
      if (nextOptions.typed) typedNumbers.push(nextOptions.typed.number)
      // The scan first: a page that leaks digits fails on that, whatever its JWE says.
      expectNoCardDigits()
      const captured = await inspectCardJwe(jwes[0]!, decryptor, { request: name, notBefore: startedAt, now })
      cards.push(captured)
      expectNoCardDigits()
      if (nextOptions.typed) matchTypedCard(captured, nextOptions.typed)
      return captured
    },
    get cards() {
      return [...cards]
    },
    get requests() {
      return [...requests]
    },
    expectNoCardDigits,
    stop() {
      source.off('request', listener)
    },
  }
}
