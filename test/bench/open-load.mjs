/**
 * Load as shoppers make it: request i is sent at start + i / rate, whether or not earlier ones have
 * been answered (an open loop), each exactly once, on keep-alive connections opened as needed. A
 * closed loop of N connections sends the next request only when one is answered, so a server that
 * answers in groups gets its requests in groups; arrivals at a steady rate do not wait for answers.
 * Latency is counted from when a request was due, not from when it went: a sender held up by a
 * busy event loop does not hide the wait. Resolves to what arrived and how fast it was answered.
 */
import http from 'node:http'
import { performance } from 'node:perf_hooks'

const REQUEST_TIMEOUT_MS = 30_000

/** `requests`: `{ method, path, headers, body }`, sent in order at `rate` a second to `url`. */
export function runOpenLoad({ url, requests, rate }) {
  const target = new URL(url)
  // Enough sockets that arrivals never queue in the agent: a request waits at the server or nowhere.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 })
  const interval = 1000 / rate
  const latencies = []
  const errorKinds = {}
  let ok = 0
  let non2xx = 0
  let errors = 0
  let next = 0
  let peakInFlight = 0
  const started = performance.now()
  let lastAnswer = started
  return new Promise((resolve) => {
    const finish = () => {
      agent.destroy()
      latencies.sort((a, b) => a - b)
      const percentile = (p) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? Number.NaN)
      const seconds = (lastAnswer - started) / 1000
      resolve({
        rate,
        requests: requests.length,
        acknowledged: ok,
        perSecond: Math.round(ok / seconds),
        p50Ms: percentile(0.5),
        p99Ms: percentile(0.99),
        non2xx,
        errors,
        ...(Object.keys(errorKinds).length > 0 ? { errorKinds } : {}),
        peakInFlight,
        seconds: Number(seconds.toFixed(2)),
      })
    }
    const answer = (due, status) => {
      lastAnswer = performance.now()
      if (status === undefined) errors++
      else if (status >= 200 && status < 300) ok++
      else non2xx++
      latencies.push(lastAnswer - due)
      if (latencies.length === requests.length) finish()
    }
    const send = (i) => {
      const { method, path, headers, body } = requests[i]
      const due = started + i * interval
      // Sent (this one too) less answered: in flight now.
      peakInFlight = Math.max(peakInFlight, i + 1 - latencies.length)
      let settled = false
      // Each request is counted once: its whole answer, or the first failure (an answer cut short included).
      const settle = (status, kind) => {
        if (settled) return
        settled = true
        if (kind !== undefined) errorKinds[kind] = (errorKinds[kind] ?? 0) + 1
        answer(due, status)
      }
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          method,
          path,
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          agent,
        },
        (response) => {
          response.resume()
          response.on('end', () => settle(response.statusCode))
          response.on('close', () => settle(undefined, 'answer cut short'))
        },
      )
      // As autocannon's timeout in load.mjs: a request that never ends fails, and the run still ends.
      request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })))
      request.on('error', (error) => settle(undefined, error?.code ?? error?.message ?? 'unknown'))
      request.end(body)
    }
    // Every request due by now goes; then a timer for the next one (timers fire late, never early).
    const sendDue = () => {
      const now = performance.now()
      while (next < requests.length && started + next * interval <= now) send(next++)
      if (next < requests.length) setTimeout(sendDue, Math.max(0, started + next * interval - performance.now()))
    }
    sendDue()
  })
}
