import { ACCEPT_HEADER_PLACEHOLDER, type BrowserInfo } from './collect-browser-info.js'
import { MAX_HEADER_LENGTH, MAX_IP_LENGTH } from './emv-limits.js'

/** The shopper's request as the shop's server sees it: Node's `req.headers` or fetch's `Headers`. */
export interface ShopperRequest {
  /** The request's headers; Accept and User-Agent are read from them. */
  readonly headers: Headers | Readonly<Record<string, string | readonly string[] | undefined>>
  /** The shopper's address as the server determined it (after any trusted proxy). */
  readonly ip?: string | undefined
}

/** What {@link completeBrowserInfo} returns: the data for the payment request. */
export interface CompletedBrowserData {
  /** The page's data with the request's Accept and User-Agent headers in. */
  readonly browserInfo: BrowserInfo
  /** The shopper's IP for the payment request's `shopperIP`; absent when it is not a valid address. */
  readonly shopperIP?: string
}

function header(headers: ShopperRequest['headers'], name: string): string | undefined {
  const raw = typeof (headers as Headers).get === 'function' ? (headers as Headers).get(name) : (headers as Record<string, unknown>)[name]
  const value = Array.isArray(raw) ? raw.join(', ') : typeof raw === 'string' ? raw : undefined
  // Control characters never belong in a header value; the limit is EMV's.
  return (
    value
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      ?.replace(/[\u0000-\u001f\u007f]/g, '')
      .trim()
      .slice(0, MAX_HEADER_LENGTH) || undefined
  )
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

/** A valid IPv4 or IPv6 address in its usual text form, or undefined. IPv4-mapped IPv6 becomes IPv4. */
export function normalizeShopperIp(ip: string | undefined): string | undefined {
  const text = (ip ?? '').trim().replace(/^::ffff:(?=\d+\.)/i, '')
  if (!text || text.length > MAX_IP_LENGTH) return undefined
  if (IPV4.test(text)) return text
  if (!/^[0-9a-f:.]+$/i.test(text) || !text.includes(':')) return undefined
  try {
    // The URL parser validates and canonicalises IPv6 without any server-only module.
    return new URL(`http://[${text}]/`).hostname.slice(1, -1)
  } catch {
    return undefined
  }
}

/**
 * Browser data as the page sent it: `collectBrowserInfo()`'s result, or a body parsed with
 * payment-validator's `BrowserInfoSchema`, where `javaScriptEnabled` is optional (a Drop-in's
 * `browserInfo` may not carry it).
 */
export type ClientBrowserInfo = Omit<BrowserInfo, 'javaScriptEnabled'> & {
  /** Absent when a page's data did not say; completed as true. */
  readonly javaScriptEnabled?: boolean | undefined
}

/**
 * Completes the browser's data with what only the server knows: the real `Accept` and
 * `User-Agent` headers of the shopper's request (EMV: at most 2048 characters each) and the
 * shopper's IP. The page's own values stay where the request has none. A missing
 * `javaScriptEnabled` is `true`: the data was collected by the page's script.
 */
export function completeBrowserInfo(clientInfo: ClientBrowserInfo, request: ShopperRequest): CompletedBrowserData {
  const shopperIP = normalizeShopperIp(request.ip)
  const browserInfo: BrowserInfo = {
    ...clientInfo,
    javaScriptEnabled: clientInfo.javaScriptEnabled ?? true,
    acceptHeader: header(request.headers, 'accept') ?? clientInfo.acceptHeader ?? ACCEPT_HEADER_PLACEHOLDER,
    userAgent: header(request.headers, 'user-agent') ?? clientInfo.userAgent.slice(0, MAX_HEADER_LENGTH),
  }
  return shopperIP === undefined ? { browserInfo } : { browserInfo, shopperIP }
}
