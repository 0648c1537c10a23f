/**
 * What the READMEs' page examples send is what their backend example accepts: each body the page
 * posts to `/api/payments` or `/api/payment-details`, evaluated as written (with a real JWE), passes
 * the backend's own parse and check against the order it shows; and every post says it is JSON,
 * without which a backend's JSON body parser (express.json(), Fastify's) reads nothing.
 */
import { describe, expect, it } from 'vitest'
import { encryptCard, encryptSecurityCode, importCertificate, toPaymentMethod, toSavedCardPaymentMethod } from 'card-jwe'
import {
  checkSubmission,
  DetailsSubmissionSchema,
  parseJsonBody,
  PaymentSubmissionSchema,
  type OrderRecord,
} from '@card-jwe/payment-validator'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { testCertificates } from '@card-jwe/testkit/vitest'
import { isBrowserExample, readmeBlocks, type ReadmeBlock } from './readme-blocks.ts'
import { root } from './shop-project.ts'

/** The order the page shows (readme-globals.d.ts declares it) and the shop's record of it: the same. */
const ORDER: OrderRecord & { id: number } = { id: 42, reference: 'ORDER-42', amount: { currency: 'EUR', value: 2800 } }
/** What collectBrowserInfo() returns in a desktop Chromium. */
const BROWSER_INFO = {
  userAgent: 'Mozilla/5.0',
  acceptHeader: '*/*',
  language: 'en-GB',
  colorDepth: 24,
  screenHeight: 1080,
  screenWidth: 1920,
  timeZoneOffset: -60,
  javaEnabled: false,
  javaScriptEnabled: true,
}
const PATHS = ['/api/payments', '/api/payment-details'] as const

/** The source of the balanced `{ … }` that opens at `start`. */
function objectAt(code: string, start: number): string {
  let depth = 0
  for (let i = start; i < code.length; i++) {
    if (code[i] === '{') depth++
    else if (code[i] === '}' && --depth === 0) return code.slice(start, i + 1)
  }
  throw new Error(`unbalanced braces from offset ${start}`)
}

interface Post {
  readonly path: (typeof PATHS)[number]
  /** `fetch` itself, or a helper of the example's (`post`) */
  readonly viaFetch: boolean
  /** the expression after the path: fetch's options, or the helper's body */
  readonly argument: string
}

/** Every post of a page block to one of PATHS, with the object it passes (an identifier resolved to its `const`). */
function postsOf(block: ReadmeBlock): Post[] {
  const posts: Post[] = []
  for (const match of block.code.matchAll(/(\w+)\('(\/api\/payments|\/api\/payment-details)', /g)) {
    const after = match.index + match[0].length
    const identifier = /^[A-Za-z_]\w*/.exec(block.code.slice(after))?.[0]
    const definition = identifier ? block.code.indexOf(`const ${identifier} = {`) : after
    if (definition < 0) throw new Error(`${block.file}:${block.line}: ${identifier} is not a const object literal`)
    const argument = objectAt(block.code, block.code.indexOf('{', definition))
    posts.push({ path: match[2] as Post['path'], viaFetch: match[1] === 'fetch', argument })
  }
  return posts
}

/** Evaluates an object literal of an example with the page's names bound to real values. */
function evaluate(expression: string, scope: Record<string, unknown>): Record<string, unknown> {
  return new Function(...Object.keys(scope), `return (${expression})`)(...Object.values(scope))
}

const pageBlocks = readmeBlocks(root).filter((block) => isBrowserExample(block) && postsOf(block).length > 0)

describe("the READMEs' page examples", () => {
  it('post to the shop: the root README, card-jwe, card-fields and checkout-actions', () => {
    expect(new Set(pageBlocks.map((b) => b.file))).toEqual(
      new Set(['README.md', 'packages/card-jwe/README.md', 'packages/card-fields/README.md', 'packages/checkout-actions/README.md']),
    )
  })

  it.each(pageBlocks.map((b) => [`${b.file}:${b.line}`, b] as const))(
    '%s: posts JSON bodies the backend example accepts',
    async (_, block) => {
      const { valid } = testCertificates()
      const certificate = await importCertificate(valid.certificatePem)
      const jwe = await encryptCard(findTestCard({ brand: 'visa' }), certificate)
      // A saved card's example builds its own `paymentMethod`: the card's id and a code-only JWE.
      const codeJwe = await encryptSecurityCode({ securityCode: '737', brand: 'visa' }, certificate)
      const scope = {
        order: ORDER,
        orderId: ORDER.id,
        jwe,
        toPaymentMethod,
        paymentMethod: toSavedCardPaymentMethod('saved-card-1', codeJwe),
        collectBrowserInfo: () => BROWSER_INFO,
        outcome: { details: { threeDSResult: 'eyJ0cmFuc1N0YXR1cyI6IlkifQ' } },
      }
      for (const post of postsOf(block)) {
        const where = `${block.file}:${block.line} ${post.path}`
        let body: unknown
        if (post.viaFetch) {
          // The body may be a const of the example's own (`JSON.stringify(submission)`): evaluated as written too.
          const named = /JSON\.stringify\(([A-Za-z_]\w*)\)/.exec(post.argument)?.[1]
          const start = named ? block.code.indexOf(`const ${named} = {`) : -1
          const bound = named && start >= 0 ? { [named]: evaluate(objectAt(block.code, block.code.indexOf('{', start)), scope) } : {}
          const options = evaluate(post.argument.replace(/JSON\.stringify\(/, '__json('), { ...scope, ...bound, __json: JSON.stringify })
          expect(options.method, where).toBe('POST')
          expect(options.headers, where).toEqual({ 'Content-Type': 'application/json' })
          body = JSON.parse(options.body as string)
        } else {
          // The example's own helper: it must send the content type.
          expect(block.code, `${where}: the post helper`).toMatch(/const post = [^\n]*headers: \{ 'Content-Type': 'application\/json' \}/)
          body = evaluate(post.argument, scope)
        }
        if (post.path === '/api/payments') {
          const parsed = parseJsonBody(JSON.stringify(body), PaymentSubmissionSchema)
          expect(parsed.ok ? [] : parsed.error.message, where).toEqual([])
          // A saved card is paid only for an order whose shopper owns one: the shop's order names its shopper.
          const savedCard = parsed.ok && 'storedPaymentMethodId' in parsed.value.paymentMethod
          const check = checkSubmission(parsed.ok ? parsed.value : null, savedCard ? { ...ORDER, shopperReference: 'shopper-1' } : ORDER)
          expect(check.ok ? [] : check.problems, where).toEqual([])
        } else {
          const parsed = parseJsonBody(JSON.stringify(body), DetailsSubmissionSchema)
          expect(parsed.ok ? [] : parsed.error.message, where).toEqual([])
        }
      }
    },
  )

  it('would be caught posting without reference and amount, or without a content type', () => {
    const old = "await fetch('/api/payments', { method: 'POST', body: JSON.stringify({ orderId, paymentMethod: toPaymentMethod(jwe) }) })"
    const [post] = postsOf({ file: 'old', line: 1, code: old, imports: [] })
    const options = evaluate(post!.argument.replace(/JSON\.stringify\(/, '__json('), {
      orderId: 42,
      jwe: 'a.b.c.d.e',
      toPaymentMethod: (j: string) => ({ type: 'scheme', jwe: j }),
      __json: JSON.stringify,
    })
    expect(options.headers).toBeUndefined()
    const check = checkSubmission(JSON.parse(options.body as string), ORDER)
    expect(check.ok ? [] : check.problems.map((p) => ('field' in p ? p.field : p.path))).toEqual(
      expect.arrayContaining(['reference', 'amount.value']),
    )
  })
})
