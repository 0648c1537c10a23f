import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parseJsonBody, ShopSettingsBatchSchema } from '@card-jwe/payment-validator'
import { SHOP_SIDE_PATHS } from '@card-jwe/service-client'
import { HttpError, readBody, sendJson } from './http.js'
import type { FailureThrottle } from './failure-throttle.js'
import type { Settings } from './settings.js'

/** Settings the service may change through the batch endpoint. */
const WRITABLE = new Set(['service_secret'])

function basicMatches(request: IncomingMessage, settings: Settings): boolean {
  const key = settings.get('basic_key')
  const secret = settings.get('basic_secret')
  if (!key || !secret) return false
  const expected = Buffer.from(`Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`)
  const given = Buffer.from(request.headers.authorization ?? '')
  // Constant time over equal lengths; a length difference says nothing about which half was wrong.
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * The spec's shop-side endpoints: read and batch settings behind HTTP Basic (401 on any mismatch,
 * with no hint which half was wrong, slowed down when repeated), and the onboarding return (302 to
 * the admin page, which re-checks the status).
 */
export async function handleShopEndpoint(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  settings: Settings,
  throttle: FailureThrottle,
): Promise<boolean> {
  if (path === SHOP_SIDE_PATHS.onboardingReturn && request.method === 'GET') {
    response.writeHead(302, { location: '/admin.html?onboarding=returned' }).end()
    return true
  }
  if (path !== SHOP_SIDE_PATHS.settings && path !== SHOP_SIDE_PATHS.settingsBatch) return false
  const address = request.socket.remoteAddress ?? 'unknown'
  if (!basicMatches(request, settings)) {
    const delay = throttle.failed(address)
    await new Promise((resolve) => setTimeout(resolve, delay))
    response
      .writeHead(401, {
        'www-authenticate': 'Basic realm="shop settings"',
        'content-type': 'application/json',
        'retry-after': String(Math.ceil(delay / 1000)),
        'x-failure-delay-ms': String(delay),
      })
      .end('{"error":"unauthorized","message":"credentials not accepted"}')
    return true
  }
  throttle.succeeded(address)
  if (path.endsWith('/general') && request.method === 'GET') {
    sendJson(response, 200, settings.serviceVisible())
    return true
  }
  if (path === SHOP_SIDE_PATHS.settingsBatch && request.method === 'POST') {
    const body = parseJsonBody(await readBody(request), ShopSettingsBatchSchema)
    if (!body.ok) throw new HttpError(400, 'INVALID_BODY', body.error.message)
    const unknown = body.value.update.filter((s) => !WRITABLE.has(s.id))
    if (unknown.length > 0) throw new HttpError(400, 'UNKNOWN_SETTING', 'update: only service_secret can be set')
    for (const setting of body.value.update) settings.set(setting.id, setting.value)
    sendJson(response, 200, settings.serviceVisible())
    return true
  }
  throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed here`)
}
