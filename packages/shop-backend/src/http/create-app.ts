import { redactPathForLog } from '@card-jwe/payment-validator'
import { Hono } from 'hono'
import { ShopBackendError } from '../errors.js'
import { storeUnavailableOf } from '../lib/store-failure.js'
import { errorCodeOf } from '../store/error-code.js'
import { errorResponse } from './answers.js'
import type { BackendEnv } from './backend-env.js'
import type { Log } from '../telemetry/log.js'

/**
 * The back end's Hono app: `addRoutes` puts the routes on it; any other path is 404, and every
 * failure becomes one JSON answer here, at the edge, its status from its code.
 */
export function createApp(addRoutes: (app: Hono<BackendEnv>) => void, log: Log): Hono<BackendEnv> {
  const app = new Hono<BackendEnv>()
  addRoutes(app)
  app.notFound(() => errorResponse(new ShopBackendError('NOT_FOUND', 'path: not served by the shop back end')))
  app.onError((error, c) => {
    if (error instanceof ShopBackendError) return errorResponse(error)
    // Paths are the client's text (an admin route takes any order id): redacted as every log line's.
    const path = redactPathForLog(c.req.path)
    const what = `${c.req.method} ${path}`
    const unavailable = storeUnavailableOf(error, log, what)
    if (unavailable) return errorResponse(unavailable)
    // The error's code or kind only: a foreign message could quote request data.
    const code = String(errorCodeOf(error))
    log(`${what} failed (${code})`, 'error', { component: 'http', code, method: c.req.method, path })
    return errorResponse(new ShopBackendError('INTERNAL', 'internal error'))
  })
  return app
}
