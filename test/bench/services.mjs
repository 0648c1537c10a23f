/**
 * The sandbox and the demo shop as separate processes on loopback (as in production, the load
 * generator does not share their event loop), and a minimal registered shop for direct calls.
 */
import { spawn } from 'node:child_process'
import { createHmac, createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

/**
 * Starts `node script` with env; resolves when a line matches `ready`, with all the lines seen so far.
 * Later output is read and dropped: the sandbox logs a line per request, and keeping it (a string
 * grown and searched again on every chunk) cost this process about 0.1 ms of CPU per payment,
 * taken from the processes being measured on a two-core machine.
 */
export function startProcess(script, env, ready, nodeArgs = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, root + script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let seen = ''
    const untilReady = (chunk) => {
      seen += chunk
      if (!ready.test(seen)) return
      child.stdout.off('data', untilReady)
      child.stdout.resume()
      resolve({
        child,
        output: seen,
        stop: () =>
          new Promise((r) => {
            child.once('exit', r)
            child.kill('SIGTERM')
          }),
      })
    }
    child.stdout.on('data', untilReady)
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)))
  })
}

/** A shop with the spec's two Basic-auth settings endpoints, registered with the service. */
export async function registerShop(serviceUrl) {
  const key = randomBytes(16).toString('hex')
  const secret = randomBytes(24).toString('hex')
  const expected = Buffer.from(`Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`)
  let serviceSecret = ''
  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const given = Buffer.from(req.headers.authorization ?? '')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return res.writeHead(401).end()
    if (req.method === 'POST') serviceSecret = JSON.parse(body).update[0].value
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ id: 'service_secret', value: serviceSecret }]))
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const response = await fetch(`${serviceUrl}/shopplatform/processor/shop-registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ shopUrl: `http://127.0.0.1:${server.address().port}`, key, secret, readyMadeStore: true }),
  })
  const { shopId, storeId } = await response.json()
  return { shopId, storeId, serviceSecret, close: () => server.close() }
}

/** The payment request every bench sends the service (28.00 EUR by default): direct, or as a shop forwards it. */
export function servicePaymentRequest({ reference, orderId, paymentMethod, amount = { currency: 'EUR', value: 2800 } }) {
  return {
    channel: 'web',
    returnUrl: 'https://shop.example/return',
    amount,
    reference,
    metadata: { shop_order_id: orderId },
    paymentMethod,
  }
}

/** The body of card payment `i` sent to the service direct (reference `bench-<i>`). */
export const directCardPaymentBody = (jwe, i) =>
  JSON.stringify(servicePaymentRequest({ reference: `bench-${i}`, orderId: i, paymentMethod: { type: 'scheme', jwe } }))

/** docs/service-signing.md, with node:crypto: an implementation independent of the service client. */
export function signedRequest(shop, method, path, body, headers = {}) {
  const timestamp = String(Math.floor(Date.now() / 1000))
  const nonce = randomBytes(16).toString('hex')
  const message = ['v1', timestamp, nonce, method, path, createHash('sha256').update(body).digest('hex')].join('\n')
  return {
    method,
    path,
    body,
    headers: {
      ...headers,
      'content-type': 'application/json',
      'x-shop-id': shop.shopId,
      'x-signature-timestamp': timestamp,
      'x-signature-nonce': nonce,
      'x-signature': `v1=${createHmac('sha256', shop.serviceSecret).update(message).digest('hex')}`,
    },
  }
}
