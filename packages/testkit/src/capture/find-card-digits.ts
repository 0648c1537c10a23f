import { clearTextOf, describeRequest, type CapturedRequest } from './lib/request-text.js'

/**
 * The shortest run of a card number's digits the scan looks for inside one request: six, the
 * length of a BIN. Shorter runs (the last four, one digit) cannot be told from an amount, a date or
 * a hex id by their text alone; the check that the encrypted number is exactly the typed one
 * (`expectCard`) is what catches digits moved out of the JWE.
 */
export const MIN_DIGIT_RUN = 6
/** Between two digits of a number written out in a request: a space, a dash, `","` of an array. */
const MAX_GAP = 8

/** Which rule found card digits, and where. */
export interface CardDigitsFinding {
  /** `"POST /api/payments"`; never the query or the body. */
  readonly request: string
  /** Where in the request. */
  readonly part: 'url' | 'body' | 'requests in sequence'
  /**
   * `whole-number`: all digits in order, whatever separates them; `number-part`: a run of at
   * least {@link MIN_DIGIT_RUN} digits; `across-requests`: one request after another, digit by digit
   * (a key logger's beacons).
   */
  readonly rule: 'whole-number' | 'number-part' | 'across-requests'
}

const digitsOf = (number: string) => number.replace(/\D/g, '')

function wholeNumber(digits: string): RegExp {
  return new RegExp(digits.split('').join(`\\D{0,${MAX_GAP}}`))
}

function numberParts(digits: string): RegExp | undefined {
  if (digits.length < MIN_DIGIT_RUN) return undefined
  const runs = new Set<string>()
  for (let start = 0; start + MIN_DIGIT_RUN <= digits.length; start++)
    runs.add(
      digits
        .slice(start, start + MIN_DIGIT_RUN)
        .split('')
        .join('[ -]?'),
    )
  return new RegExp([...runs].join('|'))
}

/** A sentence for a finding: request, place and rule, no digits. */
export function describeFinding(finding: CardDigitsFinding): string {
  const what = {
    'whole-number': 'the card number in clear (its digits in order, outside any JWE)',
    'number-part': `part of the card number in clear (${MIN_DIGIT_RUN} or more of its digits in a row)`,
    'across-requests': 'the card number in clear, a few digits per request (all its digits, in order, across the requests)',
  }[finding.rule]
  return finding.part === 'requests in sequence'
    ? `${finding.request}: the page's requests carried ${what}`
    : `${finding.request}: the ${finding.part} carried ${what}`
}

/**
 * Scans requests for the digits of card numbers outside any JWE. Every request URL (path and query)
 * and body is read raw and percent-decoded. Returns what it found, one finding per request and
 * rule; an empty list when the requests are clean.
 */
export function findCardDigits(requests: readonly CapturedRequest[], cardNumbers: readonly string[]): CardDigitsFinding[] {
  const findings: CardDigitsFinding[] = []
  const numbers = [...new Set(cardNumbers.map(digitsOf).filter((digits) => digits.length >= MIN_DIGIT_RUN))]
  if (numbers.length === 0) return findings
  const rules = numbers.map((digits) => ({ digits, whole: wholeNumber(digits), part: numberParts(digits) }))
  let sequence = ''
  for (const request of requests) {
    const text = clearTextOf(request)
    for (const part of ['url', 'body'] as const) {
      const variants = part === 'url' ? [text.url, text.decodedUrl] : [text.body, text.decodedBody]
      if (variants.some((variant) => rules.some((rule) => rule.whole.test(variant))))
        findings.push({ request: describeRequest(request), part, rule: 'whole-number' })
      else if (variants.some((variant) => rules.some((rule) => rule.part?.test(variant))))
        findings.push({ request: describeRequest(request), part, rule: 'number-part' })
    }
    sequence += digitsOf(text.decodedUrl) + digitsOf(text.decodedBody)
  }
  if (findings.length === 0 && rules.some((rule) => sequence.includes(rule.digits))) {
    findings.push({ request: `${requests.length} requests`, part: 'requests in sequence', rule: 'across-requests' })
  }
  return findings
}
