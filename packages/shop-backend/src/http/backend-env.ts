import type { RequestInfo } from '../shop-backend-types.js'

/** What the back end's Hono app gets beside the request: `fetch(request, info)` passes `info` here. */
export interface BackendEnv {
  readonly Bindings: { readonly info: RequestInfo }
}
