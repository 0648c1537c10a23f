import { ShopBackendError } from './errors.js'
import type { RequestInfo } from './shop-backend-types.js'
import { errorResponse } from './lib/http.js'
import { storeFailureOf, storeUnavailableOf } from './lib/store-failure.js'

/** One route of the checkout API: its one method and what answers it. */
export interface Route {
  readonly method: string
  readonly run: (request: Request, info: RequestInfo) => Promise<Response>
}

/**
 * The back end's `fetch`: the shop-side endpoints first, then the checkout routes by path, and every
 * failure turned into one JSON answer here, at the edge.
 */
export function createRequestHandler(deps: {
  readonly routes: Readonly<Record<string, Route>>
  /** The shop-side endpoint's answer, or undefined when the path is not one of them. */
  readonly shopSide: (request: Request, path: string, info: RequestInfo) => Promise<Response | undefined>
  readonly log: (line: string) => void
}): (request: Request, info?: RequestInfo) => Promise<Response> {
  return async function handle(request, info = {}) {
    const path = new URL(request.url).pathname
    try {
      const shopSide = await deps.shopSide(request, path, info)
      if (shopSide) return shopSide
      const route = deps.routes[path]
      if (!route) throw new ShopBackendError(404, 'NOT_FOUND', 'path: not served by the shop back end')
      if (request.method !== route.method)
        return errorResponse(new ShopBackendError(405, 'METHOD_NOT_ALLOWED', `method: ${route.method} only`), { allow: route.method })
      return await route.run(request, info)
    } catch (error) {
      if (error instanceof ShopBackendError) return errorResponse(error)
      const unavailable = storeUnavailableOf(error, deps.log, `${request.method} ${path}`)
      if (unavailable) return errorResponse(unavailable)
      // The error's code or kind only: a foreign message could quote request data.
      deps.log(`${request.method} ${path} failed (${storeFailureOf(error).code})`)
      return errorResponse(new ShopBackendError(500, 'INTERNAL', 'internal error'))
    }
  }
}
