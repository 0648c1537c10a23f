/**
 * The capture for Vitest browser mode (Playwright provider): runner-side commands that record the
 * test page's requests and hand back the card JWEs it sent, decrypted and checked. Add them in the
 * config, `browser: { commands: cardCaptureCommands({ privateKey }) }`, and call them from a test
 * through `commands` of `vitest/browser`. Importing this module also brings the commands' types.
 */
import type { BrowserCommand, BrowserCommandContext } from 'vitest/node'
import { captureCardRequests, type CardCapture, type NextCardOptions, type RequestSource } from '../capture/capture-card-requests.js'
import { CardCaptureError } from '../capture/errors.js'
import type { PrivateKeyInput } from '../decryptor/lib/private-key.js'

/** A captured card as it crosses to the browser: JSON only. */
export interface CapturedCardJson {
  /** `"POST /api/payments"`. */
  readonly request: string
  /** The protected header exactly as sent. */
  readonly protectedHeader: Readonly<Record<string, unknown>>
  /** The decrypted payload. */
  readonly card: Readonly<Record<string, unknown>>
  /** `generationtime`, ISO 8601. */
  readonly generatedAt: string
}

/** A URL pattern that can cross to the runner: a glob, or a RegExp's source and flags. */
export type UrlPatternJson =
  | string
  | {
      /** The RegExp's source. */
      readonly source: string
      /** Its flags. */
      readonly flags?: string
    }

/** Options of {@link cardCaptureCommands}. */
export interface CardCaptureCommandOptions {
  /**
   * The private key of the certificate the page encrypts with, or a function that reads it for the
   * calling test's project (each browser instance is a project of its own, with its own set-up).
   */
  readonly privateKey: PrivateKeyInput | ((context: BrowserCommandContext) => PrivateKeyInput | Promise<PrivateKeyInput>)
}

/** The commands {@link cardCaptureCommands} makes (a type literal, so it fits `browser.commands`). */
export type CardCaptureCommands = {
  /** Starts recording the test page's requests (again, from empty). */
  startCardCapture: BrowserCommand<[]>
  /** The next captured card JWE to a URL, checked; the `typed` card must be exactly the encrypted one. */
  nextCapturedCard: BrowserCommand<[url: UrlPatternJson, options?: NextCardOptions]>
  /** Scans every request so far for card digits in clear. */
  expectNoCardDigits: BrowserCommand<[numbers?: string[]]>
}

const captures = new Map<string, CardCapture>()

// Playwright's request events; the provider's context carries the page.
const pageOf = (context: unknown): RequestSource => {
  const page = (context as { page?: RequestSource }).page
  if (!page?.on) throw new Error('card capture commands need the Playwright provider (@vitest/browser-playwright)')
  return page
}

// The code goes into the message: only the message crosses to the browser.
async function withCode<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof CardCaptureError) throw new Error(`${error.code}: ${error.message}`)
    throw error
  }
}

/** Makes the capture commands for a Vitest config. */
export function cardCaptureCommands(options: CardCaptureCommandOptions): CardCaptureCommands {
  const key = async (context: BrowserCommandContext) =>
    typeof options.privateKey === 'function' ? options.privateKey(context) : options.privateKey
  const captureOf = (sessionId: string) => {
    const capture = captures.get(sessionId)
    if (!capture) throw new Error('call commands.startCardCapture() first')
    return capture
  }
  return {
    startCardCapture: async (context) => {
      captures.get(context.sessionId)?.stop()
      captures.set(context.sessionId, await captureCardRequests(pageOf(context), { privateKey: await key(context) }))
    },
    nextCapturedCard: (context, url, nextOptions) =>
      withCode(async () => {
        const pattern = typeof url === 'string' ? url : new RegExp(url.source, url.flags)
        const captured = await captureOf(context.sessionId).nextCard(pattern, nextOptions)
        return {
          request: captured.request,
          protectedHeader: captured.protectedHeader,
          card: captured.card,
          generatedAt: captured.generatedAt.toISOString(),
        } satisfies CapturedCardJson
      }),
    expectNoCardDigits: (context, numbers) => withCode(() => captureOf(context.sessionId).expectNoCardDigits(numbers)),
  }
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** From `@card-jwe/testkit/vitest-capture`: starts recording the page's requests. */
    startCardCapture: () => Promise<void>
    /** From `@card-jwe/testkit/vitest-capture`: the next card JWE sent to `url`, decrypted and checked. */
    nextCapturedCard: (url: UrlPatternJson, options?: NextCardOptions) => Promise<CapturedCardJson>
    /** From `@card-jwe/testkit/vitest-capture`: no request so far carried card digits in clear. */
    expectNoCardDigits: (numbers?: string[]) => Promise<void>
  }
}
