import type { Handler } from 'hono'
import { ShopBackendError } from '../errors.js'
import type { BackendEnv } from './backend-env.js'
import { errorResponse } from './answers.js'

/** Registered after a path's one route: any other method gets 405 with `Allow`. */
export function onlyMethod(method: 'GET' | 'POST'): Handler<BackendEnv> {
  return () => errorResponse(new ShopBackendError('METHOD_NOT_ALLOWED', `method: ${method} only`), { allow: method })
}
