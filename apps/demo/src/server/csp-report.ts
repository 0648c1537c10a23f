/**
 * What the shop logs of a Content-Security-Policy violation report: the directive that was broken
 * and the origin of what was blocked, no more. A report's document URL, blocked URL path and query,
 * and script sample can quote the page or a skimmer's exfiltration URL (card data in a query
 * string), so those never reach the log. Reads the `report-uri` format (CSP Level 3, section 5.3:
 * `{"csp-report": {...}}`) and the Reporting API's (`[{type: "csp-violation", body: {...}}]`).
 * Never throws: a report is outside data.
 */

export interface CspViolation {
  /** e.g. `script-src-elem`; `unknown` when the report names none we recognise. */
  readonly directive: string
  /** `https://host[:port]`, or a keyword such as `inline`, `eval`, `data`; `unknown` otherwise. */
  readonly blocked: string
}

const DIRECTIVE = /^[a-z][a-z-]{0,39}$/
const KEYWORD = /^(inline|eval|wasm-eval|trusted-types-policy|trusted-types-sink|data|blob|self)$/
const MAX_REPORTS = 20

/**
 * A skimmer can send a card number in a host name (DNS exfiltration: `5555444433331111.evil.example`).
 * A host with more than four digits has them shown as `#`: four digits are no more than a receipt
 * prints, so no card number reaches the log through a host name.
 */
function withoutCardDigits(host: string): string {
  return (host.match(/\d/g)?.length ?? 0) > 4 ? host.replace(/\d/g, '#') : host
}

function blockedOrigin(value: unknown): string {
  if (typeof value !== 'string') return 'unknown'
  if (KEYWORD.test(value)) return value
  try {
    const url = new URL(value)
    // Opaque origins (data:, blob:, about:) have no host: name the scheme instead.
    // The scheme is the sender's text too (`x5555444433331111:` parses): its digits go as a host's do.
    if (url.origin === 'null') return withoutCardDigits(url.protocol.replace(/:$/, ''))
    return `${url.protocol}//${withoutCardDigits(url.hostname)}${url.port ? `:${url.port}` : ''}`
  } catch {
    return 'unknown'
  }
}

function violationOf(body: Record<string, unknown>): CspViolation {
  const directive = body['effective-directive'] ?? body.effectiveDirective ?? body['violated-directive']
  return {
    directive: typeof directive === 'string' && DIRECTIVE.test(directive) ? directive : 'unknown',
    blocked: blockedOrigin(body['blocked-uri'] ?? body.blockedURL),
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The violations a report body describes; [] when it is not a report. */
export function readCspReport(body: Uint8Array): CspViolation[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder().decode(body))
  } catch {
    return []
  }
  if (isObject(parsed) && isObject(parsed['csp-report'])) return [violationOf(parsed['csp-report'])]
  if (!Array.isArray(parsed)) return []
  return parsed
    .slice(0, MAX_REPORTS)
    .filter(
      (report): report is { type: string; body: Record<string, unknown> } =>
        isObject(report) && report.type === 'csp-violation' && isObject(report.body),
    )
    .map((report) => violationOf(report.body))
}
