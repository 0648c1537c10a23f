import type { IncomingHttpHeaders } from 'node:http'

export interface SandboxRequest {
  readonly method: string
  readonly url: URL
  /** Path with query exactly as received: what a signature covers. */
  readonly pathWithQuery: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

export interface SandboxResponse {
  readonly status: number
  readonly json?: unknown
  readonly html?: string
  readonly script?: string
  /** For 302/303 redirects. */
  readonly location?: string
  /** Further headers, e.g. `retry-after` on a 429. */
  readonly headers?: Readonly<Record<string, string>>
}

export type Params = Readonly<Record<string, string>>
